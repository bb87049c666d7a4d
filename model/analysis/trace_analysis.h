// TraceAnalysis: every analysis of one trace, computed once by
// ComputeAnalysis and read by the CLI (through ResolveReport), the window and
// the compare view. It holds ids (SliceId, StringId, TrackId), never names;
// each part is a pure function with its own test, and ComputeAnalysis only
// composes them, one pass per analysis.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/analysis/busy_bins.h"
#include "model/analysis/critical_path/critical_path.h"
#include "model/analysis/device_activity.h"
#include "model/analysis/efficiency.h"
#include "model/analysis/idle_cause_table.h"
#include "model/analysis/idle_gap.h"
#include "model/analysis/kernel_stats.h"
#include "model/analysis/memory_analysis.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/outlier_steps.h"
#include "model/analysis/serving_steps.h"
#include "model/analysis/step_breakdown.h"
#include "model/analysis/step_set.h"
#include "model/analysis/step_stats.h"
#include "model/analysis/time_category.h"
#include "model/analysis/xla_ops.h"
#include "model/memory_table.h"

namespace stepline::analysis {

struct AnalysisOptions {
  std::string steps_regex;                // --steps
  DurNs min_gap_ns = 10'000;              // --min-gap-us, in ns: shortest gap the report lists
  const IdleCauseTable* table = nullptr;  // null: IdleCauseTable::Default()
  IdleGapOptions gap_options;
  // Set by another thread to stop early (the window analysing in the
  // background): checked between stages, and the partial result
  // returned then is to be discarded. Null: run to the end.
  const std::atomic<bool>* cancel = nullptr;
  EfficiencyOptions efficiency;  // --peak-tflops, --peak-dtype, --batch-size
};

struct DeviceAnalysis {
  DeviceActivity activity;            // ops, kernel union, active span, streams
  DeviceKind kind = DeviceKind::kGpu;  // activity.kind
  DurNs idle_ns = 0;                  // active span - busy: the sum of its gaps
  CauseNs idle_by_cause{};            // its gaps (the active span), by cause; sums to idle_ns
  CauseNs step_idle_by_cause{};       // no-kernel time inside the steps, by cause
  CategoryNs breakdown_total{};       // summed over the steps
  std::vector<StepBreakdown> steps;   // one per TraceAnalysis::steps entry
  uint32_t gaps_begin = 0, gaps_end = 0;  // its gaps: [begin, end) into TraceAnalysis::gaps
};

// The host event blamed for the most idle time, summed over the primary
// device's gaps inside steps (the time the recommendations rank by).
struct TopBlamedEvent {
  StringId name;         // None: no gap blames a host event
  DurNs blamed_ns = 0;   // summed overlap of its blamed windows
  uint64_t gaps = 0;     // how many of those gaps blame it
  SliceId example;       // its occurrence with the largest overlap
};

// The number of leading steps of `steps` that end at or before the cut of a
// cut file: the earliest of the last host event's end and the last device
// event's end (Kineto writes kernels after the host ops, so a cut leaves
// host ops without their kernels), and, when a converter capped the events,
// its last recorded start. All steps when the trace has no data loss.
size_t CompleteStepCount(const Trace& trace, const StepSet& steps);

struct TraceAnalysis {
  StepSet steps;                        // one definition: info, report, diff and the window use it
  std::vector<DeviceAnalysis> devices;  // ordered by device id (-1 last)
  int primary_device = -1;              // index into devices: most kernel time; -1 without GPU activity
  // Every device's gaps inside its GPU-active span (no minimum length), device
  // by device, each device's in start order.
  std::vector<IdleGap> gaps;
  std::vector<uint32_t> gap_device;     // per gap: index into devices
  std::vector<int32_t> device_of_track; // per TrackId: index into devices, -1 none
  OpStats ops;                          // keyed by StringId
  std::vector<KernelStat> kernels;      // keyed by StringId
  GraphReplays graphs;                  // CUDA / HIP graph replays and their nodes (graph_replays.h)
  XlaStats xla;                         // XLA ops and modules; empty for non-XLA traces
  StepStats step_stats;                 // over `steps`
  OutlierSteps outliers;                // slow steps vs the median, by the primary device's breakdown
  TopBlamedEvent top_blamed;
  // A cut file (data loss): the steps that end before the cut, a prefix of
  // `steps` (all of them when the file is whole). Every figure summed over
  // steps (step time, device busy, the breakdown, memory growth per step,
  // outlier steps) uses only these: see SummedStepCount.
  size_t complete_steps = 0;
  // Why such a figure is left out or narrowed, e.g. on a cut file; one line each.
  std::vector<std::string> notes;

  // The steps the figures sum: complete_steps on a cut file (which has a
  // note saying so), else all of them (analyses built by hand have neither).
  size_t SummedStepCount() const {
    return complete_steps < steps.steps.size() && !notes.empty() ? complete_steps : steps.steps.size();
  }
  // Sentences, most significant first; the memory sentences (MemoryRecommendations) last.
  std::vector<std::string> recommendations;
  BusyBins busy_bins;                   // the overview strip: kernel busy share over the trace span
  // Memory: the trace's pools (levels, allocations, OOMs) and,
  // per pool in the same order, peaks, live at peak and growth over `steps`.
  MemoryTable memory_table;
  MemoryAnalysis memory;
  EfficiencyAnalysis efficiency;        // FLOPs, MFU, memory-bound, communication, launch overhead, throughput
  DurNs min_gap_ns = 10'000;            // the options' listing threshold, for ResolveReport
  // Serving and critical-path figures (serving_steps.h, critical_path/):
  // per phase of the steps, and one critical path per step, with their sum.
  std::vector<PhaseStat> phases;
  std::vector<CriticalPath> critical_paths;
  CriticalPathTotal critical_path_total;
  std::string critical_path_sentence;   // CriticalPathSentence; "" without a path

  const DeviceAnalysis* primary() const { return primary_device >= 0 ? &devices[primary_device] : nullptr; }
  // The gaps of device `d`: [begin, end) into `gaps`.
  std::pair<uint32_t, uint32_t> DeviceGaps(uint32_t d) const { return {devices[d].gaps_begin, devices[d].gaps_end}; }
  // The gaps of device `d` overlapping [range], as an index range into `gaps`.
  std::pair<uint32_t, uint32_t> GapsInRange(uint32_t d, TimeRange range) const;
  // Index into devices of device ordinal `device_id`, -1 none.
  int32_t DeviceIndexOfId(int32_t device_id) const;
};

TraceAnalysis ComputeAnalysis(const Trace& trace, const AnalysisOptions& options = {});

// The steps, the one definition: ComputeSteps preferring the primary device's
// Steps row. `info` counts these; ComputeAnalysis uses the same call.
StepSet ComputeTraceSteps(const Trace& trace, const std::vector<DeviceActivity>& devices,
                          const std::string& steps_regex = {});
// The same, finding the primary device by PrimaryDeviceId (no ops gathered).
StepSet ComputeTraceSteps(const Trace& trace, const std::string& steps_regex = {});

// The host event blamed for the most idle time: summed overlap over the
// `gaps` that overlap a step (copies blamed for copy gaps do not count).
TopBlamedEvent ComputeTopBlamedEvent(const Trace& trace, std::span<const IdleGap> gaps);

}  // namespace stepline::analysis
