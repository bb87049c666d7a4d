// JSON, CSV and text forms of Report::memory and Report::allocations.
#include "app/output/memory_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "app/output/text_format.h"
#include "export/json_text.h"
#include "model/analysis/headline_record.h"
#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"
#include "ui/memory/memory_panel.h"
#include "ui/table_export.h"

namespace stepline::app {
namespace {

void IntOrNull(std::string* out, int64_t v) {
  if (v < 0) {
    out->append("null");
  } else {
    exports::AppendJsonInt(out, v);
  }
}

void AppendOps(const char* key, const std::vector<analysis::ReportMemoryOp>& ops, std::string* out) {
  out->append(key);
  for (size_t k = 0; k < ops.size(); ++k) {
    if (k > 0) out->push_back(',');
    out->append("{\"name\":");
    exports::AppendJsonString(out, ops[k].name);
    out->append(",\"bytes\":");
    exports::AppendJsonInt(out, ops[k].bytes);
    out->append(",\"count\":");
    exports::AppendJsonInt(out, static_cast<int64_t>(ops[k].count));
    out->push_back('}');
  }
}

void WriteOps(const std::vector<analysis::ReportMemoryOp>& ops, std::ostream& out) {
  for (const analysis::ReportMemoryOp& op : ops) {
    out << "    " << PadCell(FormatBytes(uint64_t(std::max<int64_t>(op.bytes, 0))), 10, true) << " in "
        << PadCell(FormatCount(op.count), 6, true) << "  " << (op.name.empty() ? "(no op)" : ClipName(op.name))
        << "\n";
  }
}

}  // namespace

void AppendMemoryJson(const analysis::Report& report, std::string* out) {
  out->append(",\"memory\":{");
  for (size_t i = 0; i < report.memory.size(); ++i) {
    const analysis::ReportMemory& m = report.memory[i];
    if (i > 0) out->push_back(',');
    exports::AppendJsonString(out, m.name);
    out->append(":{\"peak_allocated_bytes\":");
    exports::AppendJsonInt(out, m.peak_allocated_bytes);
    out->append(",\"peak_reserved_bytes\":");
    IntOrNull(out, m.peak_reserved_bytes);
    out->append(",\"peak_ts_ns\":");
    exports::AppendJsonInt(out, m.peak_ts_ns);
    out->append(",\"relative\":").append(m.relative ? "true" : "false");
    out->append(",\"allocations\":");
    exports::AppendJsonInt(out, static_cast<int64_t>(m.allocations));
    out->append(",\"frees\":");
    exports::AppendJsonInt(out, static_cast<int64_t>(m.frees));
    // Without addresses no free pairs with an allocation: these are unknown.
    out->append(",\"attribution\":").append(m.attributed ? "\"addresses\"" : "\"none\"");
    out->append(",\"unmatched_frees\":");
    IntOrNull(out, m.attributed ? static_cast<int64_t>(m.unmatched_frees) : -1);
    out->append(",\"never_freed\":");
    IntOrNull(out, m.attributed ? static_cast<int64_t>(m.never_freed) : -1);
    out->append(",\"oom_events\":");
    exports::AppendJsonInt(out, static_cast<int64_t>(m.ooms));
    out->append(",\"growth_per_step_bytes\":");
    exports::AppendJsonInt(out, std::llround(m.growth_per_step_bytes));
    out->append(",\"capacity_bytes\":");
    IntOrNull(out, m.capacity_bytes);
    AppendOps(",\"top_at_peak\":[", m.top_at_peak, out);
    AppendOps("],\"allocated_by_op\":[", m.allocated_by_op, out);
    out->append("]}");
  }
  out->push_back('}');
}

void AppendMemoryCsv(const analysis::Report& report, std::string* out) {
  // The window's allocation table writer, over every row in report order.
  std::vector<uint32_t> rows(report.allocations.size());
  for (uint32_t i = 0; i < rows.size(); ++i) rows[i] = i;
  out->append(ui::ToCsv(ui::AllocationsTable(report, rows)));
}

void WriteMemoryText(const analysis::Report& report, TimeNs origin_ns, std::ostream& out) {
  if (report.memory.empty()) return;
  out << "\nMemory (peak allocated; times from the trace start)\n";
  for (const analysis::ReportMemory& m : report.memory) {
    // The peak as the window's headline prints it (one formatter for every pool).
    out << "  " << m.name << ": peak "
        << analysis::HeadlineValueText("report text", analysis::HeadlineFigure::kMemoryPeak,
                                       static_cast<double>(m.peak_allocated_bytes));
    if (m.relative) out << " above the level at the capture start (only Bytes recorded)";
    out << " at " << FormatDuration(m.peak_ts_ns - origin_ns);
    // Reserved and capacity in the peak's units, so the line reads as one.
    if (m.peak_reserved_bytes >= 0) out << ", reserved " << analysis::FormatMemoryBytes(double(m.peak_reserved_bytes));
    if (m.capacity_bytes > 0) out << " of " << analysis::FormatMemoryBytes(double(m.capacity_bytes));
    out << "; " << FormatCount(m.allocations) << " allocs, " << FormatCount(m.frees) << " frees";
    if (m.growth_per_step_bytes != 0) {
      out << "; " << (m.growth_per_step_bytes > 0 ? "+" : "-")
          << FormatBytes(uint64_t(std::llround(std::fabs(m.growth_per_step_bytes)))) << " per step";
    }
    if (m.ooms > 0) out << "; " << m.ooms << " out-of-memory events";
    out << "\n";
    if (m.attributed) {
      WriteOps(m.top_at_peak, out);
    } else {
      out << "    Note: " << analysis::kNoAttributionNote << ". Allocated in the capture, by op:\n";
      WriteOps(m.allocated_by_op, out);
    }
  }
}

}  // namespace stepline::app
