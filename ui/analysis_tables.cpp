// Export builders for the analysis panels; see analysis_tables.h.
#include "ui/analysis_tables.h"

#include <cmath>
#include <string>

#include "ui/kernel_panel.h"

namespace stepline::ui {

namespace {

std::string KnownInt(int64_t v) { return v >= 0 ? IntCell(v) : std::string(); }

// "128x1x1", empty when unknown (the panel shows "-").
std::string Dim3Cell(const std::array<int64_t, 3>& d) {
  const std::string s = FormatDim3(d);
  return s == "-" ? std::string() : s;
}

}  // namespace

TextTable OpsTable(const analysis::Report& report, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"side",   "kind",   "name",   "count",   "total_ns",          "avg_ns",
              "min_ns", "max_ns", "self_ns", "percent", "cumulative_percent"};
  for (uint32_t i : rows) {
    const analysis::ReportOp& op = report.ops[i];
    t.rows.push_back({analysis::IsDeviceOpKind(op.kind) ? "device" : "host", std::string(analysis::OpKindName(op.kind)),
                      std::string(op.name), IntCell(static_cast<int64_t>(op.count)), IntCell(op.total_ns),
                      IntCell(op.avg_ns), IntCell(op.min_ns), IntCell(op.max_ns), IntCell(op.self_ns),
                      FixedCell(op.percent, 3), FixedCell(op.cumulative_percent, 3)});
  }
  return t;
}

TextTable KernelsTable(const analysis::Report& report, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"kernel", "launching_op", "count", "total_ns", "avg_ns", "min_ns", "max_ns", "grid", "block",
              "registers_per_thread", "shared_memory_bytes", "occupancy_percent"};
  for (uint32_t i : rows) {
    const analysis::ReportKernel& k = report.kernels[i];
    const bool has_occupancy = k.occupancy_percent >= 0 && std::isfinite(k.occupancy_percent);
    t.rows.push_back({std::string(k.name), std::string(k.framework_op), IntCell(static_cast<int64_t>(k.count)),
                      IntCell(k.total_ns), IntCell(k.avg_ns), IntCell(k.min_ns), IntCell(k.max_ns), Dim3Cell(k.grid),
                      Dim3Cell(k.block), KnownInt(k.registers_per_thread), KnownInt(k.shared_memory_bytes),
                      has_occupancy ? FixedCell(k.occupancy_percent, 2) : std::string()});
  }
  return t;
}

TextTable GapsTable(const Trace& trace, const AnalysisData& a, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"device", "start_ns", "offset_ns", "dur_ns", "step", "cause", "blamed_events"};
  const TimeNs origin = trace.span().start_ns;
  for (uint32_t i : rows) {
    const analysis::IdleGap& g = a.gaps[i];
    std::string blamed;
    for (const analysis::BlamedEvent& e : g.cause_events) {
      if (!blamed.empty()) blamed += "; ";
      blamed += trace.str(trace.slices().name()[e.slice.index()]);
    }
    t.rows.push_back({a.report.devices[a.gap_device[i]].name, IntCell(g.start_ns), IntCell(g.start_ns - origin),
                      IntCell(g.dur_ns()), g.step >= 0 ? a.report.steps[g.step].name : std::string(),
                      std::string(analysis::IdleCauseName(g.cause)), blamed});
  }
  return t;
}

TextTable StepsTable(const analysis::Report& report) {
  TextTable t;
  t.header = {"step", "start_ns", "dur_ns"};
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    t.header.push_back(std::string(analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c))) + "_ns");
  }
  for (const analysis::ReportStep& s : report.steps) {
    std::vector<std::string> row = {s.name, IntCell(s.start_ns), IntCell(s.dur_ns)};
    for (DurNs ns : s.breakdown) row.push_back(IntCell(ns));
    t.rows.push_back(std::move(row));
  }
  return t;
}

TextTable RangeTable(const Trace& trace, const std::vector<analysis::RangeAggregateRow>& rows,
                     const std::vector<size_t>& order) {
  TextTable t;
  t.header = {"name", "count", "total_ns", "self_ns", "avg_ns"};
  for (size_t i : order) {
    const analysis::RangeAggregateRow& r = rows[i];
    t.rows.push_back({std::string(trace.str(r.name)), IntCell(static_cast<int64_t>(r.count)), IntCell(r.total_ns),
                      IntCell(r.self_ns), IntCell(r.avg_ns())});
  }
  return t;
}

}  // namespace stepline::ui
