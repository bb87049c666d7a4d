// `report --csv`: the Report's tables as CSV (report_output.h), the same
// columns and rows as the window's Save as CSV.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "app/output/memory_output.h"
#include "app/output/report_output.h"
#include "export/json_text.h"
#include "ui/analysis_tables.h"
#include "ui/table_export.h"

namespace stepline::app {
namespace {

using analysis::Report;

void CsvInt(std::string* out, int64_t v) {
  out->push_back(',');
  exports::AppendJsonInt(out, v);
}
void CsvIntOrEmpty(std::string* out, int64_t v) {
  out->push_back(',');
  if (v >= 0) exports::AppendJsonInt(out, v);
}
void CsvText(std::string* out, std::string_view v) {
  out->push_back(',');
  ui::AppendCsvField(v, out);
}

// Steps, ops and kernels: the window's table builders (ui/analysis_tables.h)
// with every row, so `--csv` and Save as CSV write the same columns and rows.
std::vector<uint32_t> AllRows(size_t n) {
  std::vector<uint32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0u);
  return rows;
}

// Gaps from the Report's lean rows, the columns of ui::GapsTable (which reads
// the ids); the test ReportCsvMatchesWindowTables checks they agree. The JSON
// has every cause event.
void GapsCsv(const Report& r, std::string* out) {
  out->append(
      "device,start_ns,dur_ns,step,cause,next_kernel,launch_delay_ns,blamed_event,blamed_thread,"
      "blamed_overlap_ns,blamed_event_count\n");
  for (const analysis::ReportGap& g : r.gaps) {
    ui::AppendCsvField(r.DeviceName(g), out);
    CsvInt(out, g.start_ns);
    CsvInt(out, g.dur_ns);
    CsvText(out, r.StepName(g));
    CsvText(out, analysis::IdleCauseName(g.cause));
    CsvText(out, g.next_kernel);
    CsvIntOrEmpty(out, g.launch_delay_ns);
    const auto events = r.CauseEvents(g);
    if (events.empty()) {
      out->append(",,,");
    } else {
      CsvText(out, events.front().name);
      CsvText(out, r.threads[events.front().thread]);
      CsvInt(out, events.front().overlap_ns);
    }
    CsvInt(out, static_cast<int64_t>(events.size()));
    out->push_back('\n');
  }
}

}  // namespace

std::string_view ReportTableFileName(ReportTable table) {
  switch (table) {
    case ReportTable::kSteps: return "steps.csv";
    case ReportTable::kOps: return "ops.csv";
    case ReportTable::kKernels: return "kernels.csv";
    case ReportTable::kGaps: return "gaps.csv";
    case ReportTable::kMemory: return "memory.csv";
    case ReportTable::kHeadline: return "headline.csv";
  }
  return "";
}

void AppendReportCsv(const Report& report, ReportTable table, std::string* out) {
  switch (table) {
    case ReportTable::kSteps: out->append(ui::ToCsv(ui::StepsTable(report))); return;
    case ReportTable::kOps: out->append(ui::ToCsv(ui::OpsTable(report, AllRows(report.ops.size())))); return;
    case ReportTable::kKernels:
      out->append(ui::ToCsv(ui::KernelsTable(report, AllRows(report.kernels.size()))));
      return;
    case ReportTable::kGaps: return GapsCsv(report, out);
    case ReportTable::kMemory: return AppendMemoryCsv(report, out);
    case ReportTable::kHeadline: out->append(ui::ToCsv(ui::HeadlineTable(report))); return;
  }
}

}  // namespace stepline::app
