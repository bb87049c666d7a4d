// The SQLite export's analysis tables (step, step_breakdown, gap, op_stat,
// kernel_stat, headline), from one analysis::ComputeReport with the options `stepline
// report` uses by default, so a query over them gives the report's numbers.
// This is the only file of the export that knows the analysis API.
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "sqlite/insert.h"
#include "export/sqlite_export.h"
#include "model/analysis/headline_record.h"
#include "model/analysis/report.h"

namespace stepline::exports {
namespace {

void WriteSteps(const analysis::Report& r, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "step", 4);
  for (size_t i = 0; i < r.steps.size(); ++i) {
    ins.Int(1, static_cast<int64_t>(i));
    ins.Text(2, r.steps[i].name);
    ins.Int(3, r.steps[i].start_ns);
    ins.Int(4, r.steps[i].dur_ns);
    if (!ins.Row()) return;
  }
  counts->steps = r.steps.size();
}

// One row per (device, step, category) with time in it; zero rows are left out.
void WriteBreakdown(const analysis::Report& r, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "step_breakdown", 6);
  uint64_t rows = 0;
  for (size_t d = 0; d < r.devices.size(); ++d) {
    const analysis::DeviceReport& device = r.devices[d];
    for (size_t s = 0; s < device.steps.size(); ++s) {
      for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
        const DurNs ns = device.steps[s].category_ns[size_t(c)];
        if (ns == 0) continue;
        ins.Int(1, static_cast<int64_t>(s));
        device.device_id < 0 ? ins.Null(2) : ins.Int(2, device.device_id);
        ins.Text(3, device.name);
        ins.Int(4, static_cast<int>(d) == r.primary_device_index ? 1 : 0);
        ins.Text(5, analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c)));
        ins.Int(6, ns);
        if (!ins.Row()) return;
        ++rows;
      }
    }
  }
  counts->breakdown = rows;
}

void WriteGaps(const analysis::Report& r, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "gap", 10);
  for (size_t i = 0; i < r.gaps.size(); ++i) {
    const analysis::ReportGap& g = r.gaps[i];
    const analysis::DeviceReport& device = r.devices[g.device];
    ins.Int(1, static_cast<int64_t>(i));
    device.device_id < 0 ? ins.Null(2) : ins.Int(2, device.device_id);
    ins.Text(3, device.name);
    ins.Int(4, g.start_ns);
    ins.Int(5, g.dur_ns);
    g.step < 0 ? ins.Null(6) : ins.Int(6, g.step);
    ins.Text(7, analysis::IdleCauseName(g.cause));
    const auto events = r.CauseEvents(g);
    events.empty() ? ins.Null(8) : ins.TextOrNull(8, events.front().name);
    ins.TextOrNull(9, g.next_kernel);
    g.launch_delay_ns < 0 ? ins.Null(10) : ins.Int(10, g.launch_delay_ns);
    if (!ins.Row()) return;
  }
  counts->gaps = r.gaps.size();
}

void WriteOps(const analysis::Report& r, sqlite::Database* db, SqliteExportCounts* counts) {
  sqlite::Insert ins(db, "op_stat", 12);
  for (const analysis::ReportOp& op : r.ops) {
    ins.Text(1, op.name);
    ins.Text(2, analysis::OpKindName(op.kind));
    ins.Int(3, static_cast<int64_t>(op.count));
    ins.Int(4, op.total_ns);
    ins.Int(5, op.self_ns);
    ins.Int(6, op.avg_ns);
    ins.Int(7, op.min_ns);
    ins.Int(8, op.max_ns);
    ins.Real(9, op.percent);
    op.flops < 0 ? ins.Null(10) : ins.Real(10, op.flops);
    op.achieved_tflops < 0 ? ins.Null(11) : ins.Real(11, op.achieved_tflops);
    ins.TextOrNull(12, analysis::OpBoundName(op.bound));
    if (!ins.Row()) return;
  }
  counts->ops = r.ops.size();
}

std::string Dim3(const std::array<int64_t, 3>& v) {
  return std::to_string(v[0]) + "," + std::to_string(v[1]) + "," + std::to_string(v[2]);
}

void WriteKernels(const analysis::Report& r, sqlite::Database* db, SqliteExportCounts* counts) {
  // The insert binds text without a copy: the "x,y,z" strings outlive it.
  std::vector<std::string> dims;
  dims.reserve(2 * r.kernels.size());
  sqlite::Insert ins(db, "kernel_stat", 14);
  for (const analysis::ReportKernel& k : r.kernels) {
    ins.Text(1, k.name);
    k.grid[0] == 0 ? ins.Null(2) : ins.Text(2, dims.emplace_back(Dim3(k.grid)));
    k.block[0] == 0 ? ins.Null(3) : ins.Text(3, dims.emplace_back(Dim3(k.block)));
    k.registers_per_thread < 0 ? ins.Null(4) : ins.Int(4, k.registers_per_thread);
    k.shared_memory_bytes < 0 ? ins.Null(5) : ins.Int(5, k.shared_memory_bytes);
    k.occupancy_percent < 0 ? ins.Null(6) : ins.Real(6, k.occupancy_percent);
    ins.TextOrNull(7, k.framework_op);
    ins.Int(8, static_cast<int64_t>(k.count));
    ins.Int(9, k.total_ns);
    ins.Int(10, k.avg_ns);
    ins.Int(11, k.min_ns);
    ins.Int(12, k.max_ns);
    ins.TextOrNull(13, analysis::OpBoundName(k.bound));
    k.graph_id < 0 ? ins.Null(14) : ins.Int(14, k.graph_id);
    if (!ins.Row()) return;
  }
  counts->kernels = r.kernels.size();
}

// The headline figures as text, from the formatter the window uses.
void WriteHeadline(const analysis::Report& r, sqlite::Database* db) {
  const analysis::Headline h = analysis::ComputeHeadline(r);
  sqlite::Insert ins(db, "headline", 3);
  for (const analysis::HeadlineFigure figure : analysis::kHeadlineTableFigures) {
    ins.Text(1, analysis::HeadlineFigureKey(figure));  // a static string
    ins.OwnedText(2, analysis::HeadlineLabel(h, figure));
    ins.OwnedText(3, analysis::HeadlineTextAt("sqlite export", h, figure));
    if (!ins.Row()) return;
  }
}

}  // namespace

std::function<void(sqlite::Database*, SqliteExportCounts*)> StartAnalysisTables(const Trace& trace) {
  // The trace is immutable, so reading it on two threads needs no lock.
  auto report = std::make_shared<std::future<analysis::Report>>(
      std::async(std::launch::async, [&trace] { return analysis::ComputeReport(trace); }));
  return [report](sqlite::Database* db, SqliteExportCounts* counts) {
    const analysis::Report r = report->get();
    WriteSteps(r, db, counts);
    WriteBreakdown(r, db, counts);
    WriteGaps(r, db, counts);
    WriteOps(r, db, counts);
    WriteKernels(r, db, counts);
    WriteHeadline(r, db);
  };
}

}  // namespace stepline::exports
