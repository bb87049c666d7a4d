// ComputeReport: runs every analysis once and resolves names (see report.h).
//
// [SECTION] Names
// [SECTION] Devices, steps and gaps
// [SECTION] Ops and kernels
// [SECTION] Recommendation inputs
// [SECTION] ComputeReport
#include "model/analysis/report.h"

#include <algorithm>
#include <unordered_map>

#include "model/analysis/device_activity.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/recommendations.h"

namespace stepline::analysis {

//-----------------------------------------------------------------------------
// [SECTION] Names
//-----------------------------------------------------------------------------

std::string TrackDisplayName(const Trace& trace, TrackId track) {
  const StringId name = trace.tracks().name(track);
  if (!name.is_none()) return std::string(trace.str(name));
  return "tid " + std::to_string(trace.tracks().tid(track));
}

namespace {

std::string_view SliceName(const Trace& trace, SliceId s) {
  return s.is_none() ? std::string_view() : trace.str(trace.slices().name()[s.index()]);
}

//-----------------------------------------------------------------------------
// [SECTION] Devices, steps and gaps
//-----------------------------------------------------------------------------

DeviceReport SummarizeDevice(const DeviceActivity& d, const StepSet& steps, const std::vector<IdleGap>& gaps) {
  DeviceReport r;
  r.device_id = d.device_id;
  r.name = d.name;
  r.active_span = d.active_span;
  r.busy_ns = d.busy_ns;
  r.kernel_ns = d.kernel_ns;
  for (const IdleGap& g : gaps) {
    if (!g.in_active_span) continue;
    r.idle_ns += g.dur_ns();
    At(r.idle_by_cause, g.cause) += g.dur_ns();
  }
  r.steps = ComputeStepBreakdowns(d, steps, gaps);
  for (const StepBreakdown& b : r.steps) {
    for (int c = 0; c < kTimeCategoryCount; ++c) r.breakdown_total[c] += b.category_ns[c];
    for (int c = 0; c < kIdleCauseCount; ++c) r.step_idle_by_cause[c] += b.idle_by_cause[c];
  }
  return r;
}

// Builds the lean gap rows: thread names are made once per track.
class GapRowBuilder {
 public:
  GapRowBuilder(const Trace& trace, Report* report)
      : trace_(trace), report_(report), thread_index_(trace.tracks().size(), UINT32_MAX) {}

  void Add(uint32_t device, const std::vector<IdleGap>& gaps, DurNs min_gap_ns) {
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

std::vector<ReportOp> OpRows(const Trace& trace, const OpStats& stats) {
  std::vector<ReportOp> rows;
  rows.reserve(stats.ops.size());
  for (const OpStat& o : stats.ops) {
    rows.push_back(ReportOp{trace.str(o.name), o.kind, o.count, o.total_ns, o.self_ns, o.avg_ns, o.min_ns, o.max_ns,
                            o.percent, o.cumulative_percent});
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
  }
  return rows;
}

//-----------------------------------------------------------------------------
// [SECTION] Recommendation inputs
//-----------------------------------------------------------------------------

// Per cause, the names of the events blamed most (summed overlap) in gaps
// that overlap a step.
void TopBlamedEvents(const Trace& trace, const std::vector<IdleGap>& gaps, RecommendationInput* in) {
  std::array<std::unordered_map<uint32_t, DurNs>, kIdleCauseCount> by_name;
  for (const IdleGap& g : gaps) {
    if (g.step < 0) continue;
    for (const BlamedEvent& e : g.cause_events) {
      by_name[static_cast<size_t>(g.cause)][trace.slices().name()[e.slice.index()].value] += e.overlap_ns;
    }
  }
  for (int c = 0; c < kIdleCauseCount; ++c) {
    std::vector<std::pair<DurNs, uint32_t>> ranked;
    for (const auto& [name, ns] : by_name[c]) ranked.emplace_back(ns, name);
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (size_t i = 0; i < ranked.size() && i < 3; ++i)
      in->top_events[c].emplace_back(trace.str(StringId(ranked[i].second)));
  }
}

// The host thread with the most input-pipeline time inside the steps: root
// slices (and, for unmatched roots, nothing deeper) classified "input".
void BusiestInputThread(const Trace& trace, const StepSet& steps, const IdleCauseTable& table,
                        RecommendationInput* in) {
  if (steps.steps.empty()) return;
  std::vector<int8_t> is_input(trace.strings().size(), -1);
  DurNs best = 0;
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const auto& r = trace.tracks().ranges(track);
    DurNs input_ns = 0;
    size_t k = 0;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (trace.slices().depth()[i] != 0) continue;
      int8_t& known = is_input[trace.slices().name()[i].index()];
      if (known < 0) known = table.Classify(trace.str(trace.slices().name()[i])) == HostCategory::kInput ? 1 : 0;
      if (known == 0) continue;
      const TimeRange slice{trace.slices().start_ns()[i], trace.slices().start_ns()[i] + trace.slices().dur_ns()[i]};
      while (k < steps.steps.size() && steps.steps[k].end_ns() <= slice.start_ns) ++k;
      for (size_t j = k; j < steps.steps.size() && steps.steps[j].start_ns < slice.end_ns; ++j) {
        input_ns += slice.OverlapNs({steps.steps[j].start_ns, steps.steps[j].end_ns()});
      }
    }
    if (input_ns > best) {
      best = input_ns;
      in->busiest_input_thread = TrackDisplayName(trace, track);
    }
  }
  if (in->step_ns > 0)
    in->busiest_input_thread_percent = 100.0 * static_cast<double>(best) / static_cast<double>(in->step_ns);
}

RecommendationInput MakeRecommendationInput(const Trace& trace, const Report& report, const StepSet& steps,
                                            const std::vector<IdleGap>& primary_gaps, const OpStats& ops,
                                            const IdleCauseTable& table) {
  RecommendationInput in;
  if (report.primary_device_index < 0) return in;
  const DeviceReport& d = report.devices[report.primary_device_index];
  for (const Step& s : steps.steps) in.step_ns += s.dur_ns;
  in.breakdown = d.breakdown_total;
  in.idle_by_cause = d.step_idle_by_cause;
  TopBlamedEvents(trace, primary_gaps, &in);
  for (const OpStat& o : ops.ops) {
    if (!IsDeviceOpKind(o.kind)) continue;
    if (in.top_device_op.empty() || o.percent > in.top_device_op_percent) {
      in.top_device_op = std::string(trace.str(o.name));
      in.top_device_op_percent = o.percent;
    }
  }
  BusiestInputThread(trace, steps, table, &in);
  return in;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] ComputeReport
//-----------------------------------------------------------------------------

Report ComputeReport(const Trace& trace, const ReportOptions& options) {
  Report report;
  const IdleCauseTable& table = options.table != nullptr ? *options.table : IdleCauseTable::Default();
  const std::vector<DeviceActivity> devices = ComputeDeviceActivity(trace);
  report.primary_device_index = PrimaryDeviceIndex(devices);
  const int primary = report.primary_device_index;
  StepOptions step_options;
  step_options.steps_regex = options.steps_regex;
  step_options.device_id = primary >= 0 ? devices[primary].device_id : -1;
  const StepSet steps = ComputeSteps(trace, step_options);
  report.step_source = steps.source;
  report.step_error = steps.error;
  const LaunchIndex launches = BuildLaunchIndex(trace);
  std::vector<IdleGap> primary_gaps;
  GapRowBuilder gap_rows(trace, &report);
  for (size_t i = 0; i < devices.size(); ++i) {
    std::vector<IdleGap> gaps = ComputeIdleGaps(trace, devices[i], steps, table, launches, options.gap_options);
    report.devices.push_back(SummarizeDevice(devices[i], steps, gaps));
    gap_rows.Add(static_cast<uint32_t>(i), gaps, options.min_gap_ns);
    if (static_cast<int>(i) == primary) primary_gaps = std::move(gaps);
  }
  // Each device's rows are in time order; only several devices need a sort.
  auto by_start = [](const ReportGap& a, const ReportGap& b) { return a.start_ns < b.start_ns; };
  if (!std::is_sorted(report.gaps.begin(), report.gaps.end(), by_start)) {
    std::stable_sort(report.gaps.begin(), report.gaps.end(), by_start);
  }
  for (size_t k = 0; k < steps.steps.size(); ++k) {
    ReportStep row{steps.steps[k].name, steps.steps[k].start_ns, steps.steps[k].dur_ns};
    if (primary >= 0) {
      row.breakdown = report.devices[primary].steps[k].category_ns;
      row.idle_by_cause = report.devices[primary].steps[k].idle_by_cause;
    }
    report.steps.push_back(std::move(row));
  }
  if (primary >= 0) {
    report.primary_device = report.devices[primary].name;
    report.breakdown_total = report.devices[primary].breakdown_total;
    report.idle_by_cause = report.devices[primary].idle_by_cause;
  }
  const OpStats ops = ComputeOpStats(trace);
  report.ops = OpRows(trace, ops);
  report.kernels = KernelRows(trace, ComputeKernelStats(trace, launches, table));
  report.recommendations =
      ComputeRecommendations(MakeRecommendationInput(trace, report, steps, primary_gaps, ops, table));
  AddMemoryReport(trace, steps.steps, &report);
  return report;
}

}  // namespace stepline::analysis
