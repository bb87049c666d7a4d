// ComputeAnalysis: composes the analyses, one pass each (see trace_analysis.h).
//
// [SECTION] Devices, steps and gaps
// [SECTION] Top blamed event
// [SECTION] Recommendation inputs
// [SECTION] ComputeAnalysis
#include "model/analysis/trace_analysis.h"

#include <algorithm>
#include <limits>
#include <array>
#include <unordered_map>

#include "model/analysis/recommendations.h"
#include "model/analysis/track_names.h"

namespace stepline::analysis {

std::pair<uint32_t, uint32_t> TraceAnalysis::GapsInRange(uint32_t d, TimeRange range) const {
  if (d >= devices.size()) return {0, 0};
  const auto first = gaps.begin() + devices[d].gaps_begin, last = gaps.begin() + devices[d].gaps_end;
  // Gaps of one device are disjoint and sorted, so their ends are sorted too.
  auto lo = std::partition_point(first, last, [&](const IdleGap& g) { return g.end_ns <= range.start_ns; });
  auto hi = std::partition_point(lo, last, [&](const IdleGap& g) { return g.start_ns < range.end_ns; });
  return {static_cast<uint32_t>(lo - gaps.begin()), static_cast<uint32_t>(hi - gaps.begin())};
}

int32_t TraceAnalysis::DeviceIndexOfId(int32_t device_id) const {
  for (size_t d = 0; d < devices.size(); ++d) {
    if (devices[d].activity.device_id == device_id) return static_cast<int32_t>(d);
  }
  return -1;
}

namespace {

//-----------------------------------------------------------------------------
// [SECTION] Devices, steps and gaps
//-----------------------------------------------------------------------------

// Sums one device's gaps and step breakdowns; keeps the gaps of its active span.
// Only the first `summed_steps` steps enter the totals: on a cut file the
// later steps' kernels were never written, and their time would read as idle.
void AddDevice(DeviceActivity activity, const StepSet& steps, size_t summed_steps, std::vector<IdleGap> gaps,
               TraceAnalysis* a) {
  DeviceAnalysis d;
  d.kind = activity.kind;
  d.steps = ComputeStepBreakdowns(activity, steps, gaps);
  for (size_t k = 0; k < d.steps.size() && k < summed_steps; ++k) {
    const StepBreakdown& b = d.steps[k];
    for (int c = 0; c < kTimeCategoryCount; ++c) d.breakdown_total[c] += b.category_ns[c];
    for (int c = 0; c < kIdleCauseCount; ++c) d.step_idle_by_cause[c] += b.idle_by_cause[c];
  }
  const uint32_t index = static_cast<uint32_t>(a->devices.size());
  d.gaps_begin = static_cast<uint32_t>(a->gaps.size());
  a->gaps.reserve(a->gaps.size() + gaps.size());
  a->gap_device.reserve(a->gaps.size() + gaps.size());
  for (IdleGap& g : gaps) {
    if (!g.in_active_span) continue;
    d.idle_ns += g.dur_ns();
    At(d.idle_by_cause, g.cause) += g.dur_ns();
    a->gaps.push_back(std::move(g));
    a->gap_device.push_back(index);
  }
  d.gaps_end = static_cast<uint32_t>(a->gaps.size());
  for (TrackId t : activity.streams) a->device_of_track[t.index()] = static_cast<int32_t>(index);
  d.activity = std::move(activity);
  a->devices.push_back(std::move(d));
}

//-----------------------------------------------------------------------------
// [SECTION] Recommendation inputs
//-----------------------------------------------------------------------------

// Per cause, the names of the events blamed most (summed overlap) in gaps
// that overlap a step.
void TopBlamedEvents(const Trace& trace, std::span<const IdleGap> gaps, RecommendationInput* in) {
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
      while (k < steps.steps.size() && steps.steps[k].window_end_ns() <= slice.start_ns) ++k;
      for (size_t j = k; j < steps.steps.size() && steps.steps[j].start_ns < slice.end_ns; ++j) {
        input_ns += slice.OverlapNs({steps.steps[j].start_ns, steps.steps[j].window_end_ns()});
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

// A ROCm trace names HIP runtime calls (hipLaunchKernel, hipModuleLaunchKernel,
// hipMemcpyAsync, hipDeviceSynchronize, ...); one pass over the distinct names.
bool UsesHip(const Trace& trace) {
  for (size_t i = 1; i < trace.strings().size(); ++i) {
    const std::string_view name = trace.str(StringId(static_cast<uint32_t>(i)));
    if (name.starts_with("hip") &&
        (name.find("Launch") != std::string_view::npos || name.find("Memcpy") != std::string_view::npos ||
         name.find("Synchronize") != std::string_view::npos))
      return true;
  }
  return false;
}

// `in` already holds TopBlamedEvents of the primary device's gaps.
void FillRecommendationInput(const Trace& trace, const TraceAnalysis& a, const IdleCauseTable& table,
                             RecommendationInput* out) {
  RecommendationInput& in = *out;
  const DeviceAnalysis* d = a.primary();
  if (d == nullptr) return;
  if (d->kind == DeviceKind::kTpu) {
    in.stack = AdviceStack::kXla;
    in.device_word = "TPU";
  } else if (d->kind == DeviceKind::kOther) {
    in.device_word = "device";
  } else if (UsesHip(trace)) {
    in.stack = AdviceStack::kRocm;
  }
  in.step_ns = a.step_stats.window_total_ns;  // what the breakdown sums to (overlaps split)
  in.breakdown = d->breakdown_total;
  in.idle_by_cause = d->step_idle_by_cause;
  std::vector<const OpStat*> copies, collectives;
  for (const OpStat& o : a.ops.ops) {
    if (o.kind == OpKind::kMemcpy) copies.push_back(&o);
    if (o.kind == OpKind::kKernel && o.collective) collectives.push_back(&o);
    // Only compute is advice for a compute-bound step: a copy or collective
    // (an XLA *-done is a wait) is not, and mixed precision will not speed it.
    if (o.kind != OpKind::kKernel || o.collective) continue;
    if (in.top_device_op.empty() || o.percent > in.top_device_op_percent) {
      in.top_device_op = std::string(trace.str(o.name));
      in.top_device_op_percent = o.percent;
    }
  }
  std::stable_sort(copies.begin(), copies.end(), [](const OpStat* x, const OpStat* y) { return x->self_ns > y->self_ns; });
  for (size_t i = 0; i < copies.size() && i < 3; ++i) in.top_copy_ops.emplace_back(trace.str(copies[i]->name));
  std::stable_sort(collectives.begin(), collectives.end(),
                   [](const OpStat* x, const OpStat* y) { return x->self_ns > y->self_ns; });
  for (size_t i = 0; i < collectives.size() && i < 3; ++i) {
    in.top_collective_ops.emplace_back(trace.str(collectives[i]->name));
  }
  BusiestInputThread(trace, a.steps, table, &in);
}

}  // namespace

size_t CompleteStepCount(const Trace& trace, const StepSet& steps) {
  if (!trace.diagnostics().has_data_loss()) return steps.steps.size();
  TimeNs host_end = std::numeric_limits<TimeNs>::min(), device_end = host_end;
  const SliceTable& s = trace.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    const TimeNs end = s.start_ns()[i] + s.dur_ns()[i];
    if (s.gpu_kind()[i] != GpuKind::kNone) {
      device_end = std::max(device_end, end);
    } else if (trace.tracks().kind(s.track()[i]) == TrackKind::kHostThread) {
      host_end = std::max(host_end, end);
    }
  }
  TimeNs cut = std::min(host_end, device_end == std::numeric_limits<TimeNs>::min() ? host_end : device_end);
  // A converter's event cap (XLA's trace viewer) dropped every event that
  // starts after the last one kept, however long the kept ones last.
  if (trace.info().event_cap > 0) cut = std::min(cut, trace.info().recorded_until_ns);
  size_t n = 0;
  while (n < steps.steps.size() && steps.steps[n].end_ns() <= cut) ++n;
  return n;
}

//-----------------------------------------------------------------------------
// [SECTION] Top blamed event
//-----------------------------------------------------------------------------

TopBlamedEvent ComputeTopBlamedEvent(const Trace& trace, std::span<const IdleGap> gaps) {
  struct Tally {
    DurNs blamed_ns = 0;
    uint64_t gaps = 0;
    SliceId example;
    DurNs example_ns = -1;
  };
  std::unordered_map<uint32_t, Tally> by_name;
  const auto names = trace.slices().name();
  for (const IdleGap& g : gaps) {
    if (g.step < 0) continue;
    for (const BlamedEvent& e : g.cause_events) {
      // Only host events: a copy blamed for a copy-caused gap is GPU work.
      if (e.category == HostCategory::kNone) continue;
      Tally& t = by_name[names[e.slice.index()].value];
      t.blamed_ns += e.overlap_ns;
      ++t.gaps;  // an event is blamed at most once per gap
      if (e.overlap_ns > t.example_ns) {
        t.example_ns = e.overlap_ns;
        t.example = e.slice;
      }
    }
  }
  TopBlamedEvent top;
  for (const auto& [name, t] : by_name) {
    // Ties: more gaps, then the lower string id, so the answer is stable.
    if (t.blamed_ns > top.blamed_ns ||
        (t.blamed_ns == top.blamed_ns && (t.gaps > top.gaps || (t.gaps == top.gaps && name < top.name.value)))) {
      top = TopBlamedEvent{StringId(name), t.blamed_ns, t.gaps, t.example};
    }
  }
  return top;
}

//-----------------------------------------------------------------------------
// [SECTION] ComputeAnalysis
//-----------------------------------------------------------------------------

StepSet ComputeTraceSteps(const Trace& trace, const std::vector<DeviceActivity>& devices,
                          const std::string& steps_regex) {
  const int primary = PrimaryDeviceIndex(devices);
  StepOptions step_options;
  step_options.steps_regex = steps_regex;
  step_options.device_id = primary >= 0 ? devices[primary].device_id : -1;
  return ComputeSteps(trace, step_options);
}

StepSet ComputeTraceSteps(const Trace& trace, const std::string& steps_regex) {
  StepOptions step_options;
  step_options.steps_regex = steps_regex;
  step_options.device_id = PrimaryDeviceId(trace).value_or(-1);
  return ComputeSteps(trace, step_options);
}

TraceAnalysis ComputeAnalysis(const Trace& trace, const AnalysisOptions& options) {
  const auto cancelled = [&] { return options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed); };
  TraceAnalysis a;
  a.min_gap_ns = options.min_gap_ns;
  const IdleCauseTable& table = options.table != nullptr ? *options.table : IdleCauseTable::Default();
  std::vector<DeviceActivity> devices = ComputeDeviceActivity(trace);
  if (cancelled()) return a;
  a.primary_device = PrimaryDeviceIndex(devices);
  a.steps = ComputeTraceSteps(trace, devices, options.steps_regex);
  // A cut file: every figure over the steps (step time, device busy, the
  // breakdown, memory growth, outliers) uses only the steps that end before
  // the cut (the last ones may lack their kernels, or their end), and those
  // that need whole steps none with fewer than two.
  a.complete_steps = CompleteStepCount(trace, a.steps);
  const size_t all_steps = a.steps.steps.size();
  const bool cut = a.complete_steps < all_steps;
  StepSet complete = a.steps;
  complete.steps.resize(a.complete_steps);
  a.step_stats = ComputeStepStats(complete);
  {  // The launch index and the sweep's temporaries are freed before the memory table is built.
    const LaunchIndex launches = BuildLaunchIndex(trace);
    a.device_of_track.assign(trace.tracks().size(), -1);
    std::vector<Interval> kernels;
    a.xla = ComputeXlaStats(trace, devices);
    RecommendationInput recommendation_input;
    for (size_t i = 0; i < devices.size(); ++i) {
      if (cancelled()) return a;
      std::vector<IdleGap> gaps = ComputeIdleGaps(trace, devices[i], a.steps, table, launches, options.gap_options);
      kernels.insert(kernels.end(), devices[i].kernel_busy.begin(), devices[i].kernel_busy.end());
      if (static_cast<int>(i) == a.primary_device) {
        // All of the primary device's gaps, those outside its active span too
        // (idle in a step before its first kernel): the blame rankings count
        // them, so they are ranked here, before AddDevice keeps only the rest.
        a.top_blamed = ComputeTopBlamedEvent(trace, gaps);
        TopBlamedEvents(trace, gaps, &recommendation_input);
      }
      AddDevice(std::move(devices[i]), a.steps, a.complete_steps, std::move(gaps), &a);
    }
    a.busy_bins = ComputeBusyBins(std::move(kernels), trace.span(), kBusyBinCount);
    if (cancelled()) return a;
    CriticalPathInput path_input{&a.steps, {}, &launches, &table};
    for (const DeviceAnalysis& d : a.devices) {
      path_input.streams.insert(path_input.streams.end(), d.activity.streams.begin(), d.activity.streams.end());
    }
    a.critical_paths = ComputeCriticalPaths(trace, path_input);
    a.critical_path_total = SumCriticalPaths(trace, a.critical_paths);
    a.critical_path_sentence = CriticalPathSentence(trace, a.critical_path_total);
    if (cancelled()) return a;
    a.ops = ComputeOpStats(trace, &a.steps);
    AddGraphReplayOps(trace, launches.graphs, &a.ops);
    a.graphs = launches.graphs;
    a.kernels = ComputeKernelStats(trace, launches, table);
    a.efficiency = ComputeEfficiency(trace, a, launches, options.efficiency);
    FillRecommendationInput(trace, a, table, &recommendation_input);
    a.recommendations = ComputeRecommendations(recommendation_input);
  }
  const DeviceAnalysis* primary = a.primary();
  a.phases = ComputePhaseStats(a.steps, primary != nullptr ? std::span<const StepBreakdown>(primary->steps)
                                                           : std::span<const StepBreakdown>());
  // Each phase's MFU: the model FLOPs of its steps over their summed time
  // (prefill is compute-heavy, decode is not: one run-wide figure hides that).
  for (PhaseStat& p : a.phases) {
    double flops = 0;
    DurNs ns = 0;
    bool known = false;
    for (size_t i = 0; i < a.steps.steps.size() && i < a.efficiency.steps.size(); ++i) {
      if (a.steps.steps[i].phase != p.phase) continue;
      ns += a.steps.steps[i].dur_ns;
      if (a.efficiency.steps[i].flops >= 0) flops += a.efficiency.steps[i].flops, known = true;
    }
    if (known && a.efficiency.any_flops) p.mfu_percent = MfuPercent(flops, ns, a.efficiency.peak_tflops);
  }
  const size_t whole = cut && a.complete_steps < 2 ? 0 : a.complete_steps;
  if (cut) {
    a.notes.push_back("The file is cut: " + std::to_string(a.complete_steps) + " of " + std::to_string(all_steps) +
                      " steps end before the cut; step time, device busy and the breakdown use those only; " +
                      (whole > 0 ? "so do memory growth per step and outlier steps"
                                 : "with fewer than two, memory growth per step and outlier steps are left out"));
  }
  complete.steps.resize(whole);
  std::span<const StepBreakdown> breakdowns;
  if (primary != nullptr) breakdowns = std::span<const StepBreakdown>(primary->steps).first(std::min(whole, primary->steps.size()));
  a.outliers = ComputeOutlierSteps(trace, complete, breakdowns);
  DurNs complete_ns = 0;
  for (const Step& st : complete.steps) complete_ns += st.dur_ns;
  std::string outlier_sentence = OutlierRecommendation(trace, a.outliers, whole, complete_ns);
  if (!outlier_sentence.empty()) a.recommendations.push_back(std::move(outlier_sentence));
  if (cancelled()) return a;
  a.memory_table = BuildMemoryTable(trace);
  a.memory = ComputeMemoryAnalysis(a.memory_table, complete.steps);
  for (std::string& s : MemoryRecommendations(a.memory_table, a.memory, whole)) {
    a.recommendations.push_back(std::move(s));
  }
  return a;
}

}  // namespace stepline::analysis
