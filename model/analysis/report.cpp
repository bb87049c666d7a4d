// ResolveReport: a TraceAnalysis with its ids turned into names (see report.h).
//
// [SECTION] Names
// [SECTION] Devices and gaps
// [SECTION] Ops and kernels
// [SECTION] ResolveReport
#include "model/analysis/report.h"

#include <algorithm>

namespace stepline::analysis {

//-----------------------------------------------------------------------------
// [SECTION] Names
//-----------------------------------------------------------------------------

namespace {

std::string_view SliceName(const Trace& trace, SliceId s) {
  return s.is_none() ? std::string_view() : trace.str(trace.slices().name()[s.index()]);
}

//-----------------------------------------------------------------------------
// [SECTION] Devices and gaps
//-----------------------------------------------------------------------------

DeviceReport SummarizeDevice(const DeviceAnalysis& d) {
  DeviceReport r;
  r.device_id = d.activity.device_id;
  r.name = d.activity.name;
  r.kind = d.kind;
  r.active_span = d.activity.active_span;
  r.busy_ns = d.activity.busy_ns;
  r.kernel_ns = d.activity.kernel_ns;
  r.idle_ns = d.idle_ns;
  r.idle_by_cause = d.idle_by_cause;
  r.breakdown_total = d.breakdown_total;
  r.step_idle_by_cause = d.step_idle_by_cause;
  r.steps = d.steps;
  return r;
}

// Builds the lean gap rows: thread names are made once per track.
class GapRowBuilder {
 public:
  GapRowBuilder(const Trace& trace, Report* report)
      : trace_(trace), report_(report), thread_index_(trace.tracks().size(), UINT32_MAX) {}

  void Add(uint32_t device, std::span<const IdleGap> gaps, DurNs min_gap_ns) {
    for (const IdleGap& g : gaps) {
      if (!g.in_active_span || g.dur_ns() < min_gap_ns || g.dur_ns() <= 0) continue;
      ReportGap row;
      row.device = device;
      row.start_ns = g.start_ns;
      row.dur_ns = g.dur_ns();
      row.step = g.step;
      row.cause = g.cause;
      row.events_begin = static_cast<uint32_t>(report_->gap_events.size());
      for (const BlamedEvent& e : g.cause_events) report_->gap_events.push_back(Event(e));
      row.events_end = static_cast<uint32_t>(report_->gap_events.size());
      row.next_kernel = SliceName(trace_, g.next_kernel);
      row.launch_delay_ns = g.launch_delay_ns;
      report_->gaps.push_back(row);
    }
  }

 private:
  ReportEvent Event(const BlamedEvent& e) {
    const uint32_t i = e.slice.value;
    const TrackId track = trace_.slices().track()[i];
    uint32_t& thread = thread_index_[track.index()];
    if (thread == UINT32_MAX) {
      thread = static_cast<uint32_t>(report_->threads.size());
      report_->threads.push_back(TrackDisplayName(trace_, track));
    }
    return ReportEvent{SliceName(trace_, e.slice), thread, trace_.slices().start_ns()[i], trace_.slices().dur_ns()[i],
                       e.overlap_ns};
  }

  const Trace& trace_;
  Report* report_;
  std::vector<uint32_t> thread_index_;  // per TrackId: index into report->threads
};

//-----------------------------------------------------------------------------
// [SECTION] Ops and kernels
//-----------------------------------------------------------------------------

std::vector<ReportOp> OpRows(const Trace& trace, const std::vector<OpStat>& ops) {
  std::vector<ReportOp> rows;
  rows.reserve(ops.size());
  for (const OpStat& o : ops) {
    rows.push_back(ReportOp{trace.str(o.name), o.kind, o.count, o.total_ns, o.self_ns, o.avg_ns, o.min_ns, o.max_ns,
                            o.percent, o.cumulative_percent});
    rows.back().graph_id = o.graph_id;
  }
  return rows;
}

std::vector<ReportKernel> KernelRows(const Trace& trace, const std::vector<KernelStat>& stats) {
  std::vector<ReportKernel> rows;
  rows.reserve(stats.size());
  for (const KernelStat& k : stats) {
    rows.push_back(ReportKernel{trace.str(k.name), k.grid, k.block, k.registers_per_thread, k.shared_memory_bytes,
                                k.occupancy_percent, trace.str(k.framework_op), k.count, k.total_ns, k.avg_ns, k.min_ns,
                                k.max_ns});
    rows.back().graph_id = k.graph_id;
    rows.back().graph_node_id = k.graph_node_id;
  }
  return rows;
}

ReportCriticalPath ResolveCriticalPath(const Trace& trace, const CriticalPath& path) {
  ReportCriticalPath out{path.dur_ns, path.by_kind_ns, path.slices, {}};
  for (const auto& [name, ns] : path.top) out.top.emplace_back(trace.str(name), ns);
  return out;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] ResolveReport
//-----------------------------------------------------------------------------

Report ResolveReport(const Trace& trace, const TraceAnalysis& a) {
  Report report;
  report.primary_device_index = a.primary_device;
  const int primary = a.primary_device;
  report.step_source = a.steps.source;
  report.step_error = a.steps.error;
  report.step_source_sentence = StepSourceSentence(a.steps);
  report.step_engine = a.steps.engine;
  report.phases = a.phases;
  report.critical_path_total.dur_ns = a.critical_path_total.dur_ns;
  report.critical_path_total.by_kind_ns = a.critical_path_total.by_kind_ns;
  for (const auto& [name, ns] : a.critical_path_total.top) report.critical_path_total.top.emplace_back(trace.str(name), ns);
  report.critical_path_sentence = a.critical_path_sentence;
  report.steps_overlap_count = a.steps.overlap_count;
  report.steps_overlap_max_ns = a.steps.max_overlap_ns;
  GapRowBuilder gap_rows(trace, &report);
  const std::span<const IdleGap> gaps(a.gaps);
  for (size_t i = 0; i < a.devices.size(); ++i) {
    const DeviceAnalysis& d = a.devices[i];
    report.devices.push_back(SummarizeDevice(d));
    gap_rows.Add(static_cast<uint32_t>(i), gaps.subspan(d.gaps_begin, d.gaps_end - d.gaps_begin), a.min_gap_ns);
  }
  // Each device's rows are in time order; only several devices need a sort.
  auto by_start = [](const ReportGap& x, const ReportGap& y) { return x.start_ns < y.start_ns; };
  if (!std::is_sorted(report.gaps.begin(), report.gaps.end(), by_start)) {
    std::stable_sort(report.gaps.begin(), report.gaps.end(), by_start);
  }
  for (size_t k = 0; k < a.steps.steps.size(); ++k) {
    const Step& st = a.steps.steps[k];
    ReportStep row{st.name, st.start_ns, st.dur_ns, st.window_dur_ns};
    row.phase = st.phase;
    row.batch = st.batch;
    row.tokens = st.tokens;
    if (k < a.critical_paths.size()) row.critical_path = ResolveCriticalPath(trace, a.critical_paths[k]);
    if (primary >= 0) {
      row.breakdown = a.devices[primary].steps[k].category_ns;
      row.idle_by_cause = a.devices[primary].steps[k].idle_by_cause;
    }
    report.steps.push_back(std::move(row));
  }
  if (primary >= 0) {
    report.primary_device = report.devices[primary].name;
    report.breakdown_total = report.devices[primary].breakdown_total;
    report.idle_by_cause = report.devices[primary].idle_by_cause;
    report.gpu_busy_percent = GpuBusyPercent(report.breakdown_total);
  }
  report.ops = OpRows(trace, a.ops.ops);
  report.step_markers = OpRows(trace, a.ops.step_markers);
  report.kernels = KernelRows(trace, a.kernels);
  report.graph_replays = a.graphs.replays;
  ResolveEfficiency(trace, a, &report);
  report.xla = a.xla;
  report.recommendations = a.recommendations;
  report.notes = a.notes;
  report.complete_steps = a.complete_steps;
  report.step_stats = a.step_stats;
  if (!a.top_blamed.name.is_none()) {
    report.top_blamed_event = trace.str(a.top_blamed.name);
    report.top_blamed_ns = a.top_blamed.blamed_ns;
    report.top_blamed_gaps = a.top_blamed.gaps;
  }
  report.outlier_threshold_ns = a.outliers.threshold_ns;
  for (const OutlierStep& o : a.outliers.steps) {
    ReportOutlierStep row;
    row.step = o.step;
    row.name = a.steps.steps[o.step].name;
    row.dur_ns = a.steps.steps[o.step].dur_ns;
    row.excess_ns = o.excess_ns;
    if (o.has_cause) row.cause = TimeCategoryName(o.cause);
    for (const OutlierBlame& b : o.blamed) {
      row.blamed.push_back(trace.str(b.name));
      row.blamed_excess_ns.push_back(b.excess_ns);
    }
    report.outlier_steps.push_back(std::move(row));
  }
  AddMemoryReport(trace, a, &report);
  return report;
}

Report ComputeReport(const Trace& trace, const ReportOptions& options) {
  return ResolveReport(trace, ComputeAnalysis(trace, options));
}

}  // namespace stepline::analysis
