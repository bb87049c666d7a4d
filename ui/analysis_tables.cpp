// Export builders for the analysis panels; see analysis_tables.h.
#include "ui/analysis_tables.h"

#include <array>
#include <cmath>
#include <string>

#include "model/analysis/headline_record.h"
#include "model/analysis/track_names.h"

namespace stepline::ui {

namespace {

std::string KnownInt(int64_t v) { return v >= 0 ? IntCell(v) : std::string(); }

bool KnownTriple(const std::array<int64_t, 3>& v) { return v[0] != 0 || v[1] != 0 || v[2] != 0; }

}  // namespace

// The columns below are `stepline report --csv`'s (docs/cli.md, `stepline report`):
// the CLI writes these same tables with every row (app/output/report_output.cpp).

TextTable OpsTable(const analysis::Report& report, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"name",   "kind",   "count",  "total_ns", "self_ns",
              "avg_ns", "min_ns", "max_ns", "percent",  "cumulative_percent",
              "flops",  "achieved_tflops",  "arithmetic_intensity", "bound"};
  for (uint32_t i : rows) {
    const analysis::ReportOp& op = report.ops[i];
    t.rows.push_back({std::string(op.name), std::string(analysis::OpKindName(op.kind)),
                      IntCell(static_cast<int64_t>(op.count)), IntCell(op.total_ns), IntCell(op.self_ns),
                      IntCell(op.avg_ns), IntCell(op.min_ns), IntCell(op.max_ns), FixedCell(op.percent, 3),
                      FixedCell(op.cumulative_percent, 3), op.flops < 0 ? std::string() : FixedCell(op.flops, 0),
                      op.achieved_tflops < 0 ? std::string() : FixedCell(op.achieved_tflops, 3),
                      op.intensity < 0 ? std::string() : FixedCell(op.intensity, 3),
                      std::string(analysis::OpBoundName(op.bound))});
  }
  return t;
}

TextTable KernelsTable(const analysis::Report& report, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"name",
              "grid_x",
              "grid_y",
              "grid_z",
              "block_x",
              "block_y",
              "block_z",
              "registers_per_thread",
              "shared_memory_bytes",
              "occupancy_percent",
              "framework_op",
              "count",
              "total_ns",
              "avg_ns",
              "min_ns",
              "max_ns",
              "bound",
              "graph_id",
              "graph_node_id"};
  for (uint32_t i : rows) {
    const analysis::ReportKernel& k = report.kernels[i];
    std::vector<std::string> row = {std::string(k.name)};
    for (const auto* triple : {&k.grid, &k.block}) {
      for (int64_t v : *triple) row.push_back(KnownTriple(*triple) ? IntCell(v) : std::string());
    }
    const bool has_occupancy = k.occupancy_percent >= 0 && std::isfinite(k.occupancy_percent);
    for (std::string cell : {KnownInt(k.registers_per_thread), KnownInt(k.shared_memory_bytes),
                             has_occupancy ? FixedCell(k.occupancy_percent, 2) : std::string(),
                             std::string(k.framework_op), IntCell(static_cast<int64_t>(k.count)), IntCell(k.total_ns),
                             IntCell(k.avg_ns), IntCell(k.min_ns), IntCell(k.max_ns),
                             std::string(analysis::OpBoundName(k.bound)), KnownInt(k.graph_id),
                             KnownInt(k.graph_node_id)}) {
      row.push_back(std::move(cell));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

// Cause events are a nested list; the table keeps the most blamed one (they
// are sorted by overlap) and how many there are.
TextTable GapsTable(const Trace& trace, const AnalysisData& a, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"device",
              "start_ns",
              "dur_ns",
              "step",
              "cause",
              "next_kernel",
              "launch_delay_ns",
              "blamed_event",
              "blamed_thread",
              "blamed_overlap_ns",
              "blamed_event_count"};
  const auto names = trace.slices().name();
  for (uint32_t i : rows) {
    const analysis::IdleGap& g = a.gaps[i];
    std::vector<std::string> row = {
        a.report.devices[a.gap_device[i]].name,
        IntCell(g.start_ns),
        IntCell(g.dur_ns()),
        g.step >= 0 ? a.report.steps[g.step].name : std::string(),
        std::string(analysis::IdleCauseName(g.cause)),
        g.next_kernel.is_none() ? std::string() : std::string(trace.str(names[g.next_kernel.index()])),
        KnownInt(g.launch_delay_ns)};
    if (g.cause_events.empty()) {
      row.insert(row.end(), {std::string(), std::string(), std::string()});
    } else {
      const analysis::BlamedEvent& e = g.cause_events.front();
      row.push_back(std::string(trace.str(names[e.slice.index()])));
      row.push_back(analysis::TrackDisplayName(trace, trace.slices().track()[e.slice.index()]));
      row.push_back(IntCell(e.overlap_ns));
    }
    row.push_back(IntCell(static_cast<int64_t>(g.cause_events.size())));
    t.rows.push_back(std::move(row));
  }
  return t;
}

TextTable HeadlineTable(const analysis::Report& report) {
  // The window's headline figures as text, from the one formatter, so a
  // spreadsheet shows what the overview does.
  const analysis::Headline h = analysis::ComputeHeadline(report);
  TextTable t;
  t.header = {"figure", "label", "value"};
  for (const analysis::HeadlineFigure figure : analysis::kHeadlineTableFigures) {
    t.rows.push_back({std::string(analysis::HeadlineFigureKey(figure)), analysis::HeadlineLabel(h, figure),
                      analysis::HeadlineTextAt("table export", h, figure)});
  }
  return t;
}

TextTable StepsTable(const analysis::Report& report) {
  TextTable t;
  t.header = {"name", "start_ns", "dur_ns"};
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    t.header.push_back(std::string(analysis::TimeCategoryName(static_cast<analysis::TimeCategory>(c))) + "_ns");
  }
  t.header.insert(t.header.end(), {"flops", "mfu_percent", "samples_per_s"});
  for (const analysis::ReportStep& s : report.steps) {
    std::vector<std::string> row = {s.name, IntCell(s.start_ns), IntCell(s.dur_ns)};
    for (DurNs ns : s.breakdown) row.push_back(IntCell(ns));
    row.push_back(s.efficiency.flops < 0 ? std::string() : FixedCell(s.efficiency.flops, 0));
    row.push_back(s.efficiency.mfu_percent < 0 ? std::string() : FixedCell(s.efficiency.mfu_percent, 2));
    row.push_back(s.efficiency.samples_per_s < 0 ? std::string() : FixedCell(s.efficiency.samples_per_s, 3));
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
