// Report: everything `stepline report` prints, with names resolved, so a CLI
// can write it as JSON, CSV or text. ResolveReport builds it from a
// TraceAnalysis (ids); ComputeReport = ResolveReport(ComputeAnalysis(...)). Names of ops,
// kernels and events are string_views into the trace's StringPool: keep the
// Trace alive while the Report is used. Gap rows are lean (there can be
// ~100k): device, step and thread are indices, cause events one flat vector.
// The window reads the TraceAnalysis itself and keeps ids.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/idle_cause_table.h"
#include "model/analysis/idle_gap.h"
#include "model/analysis/memory_report.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/step_breakdown.h"
#include "model/analysis/step_set.h"
#include "model/analysis/step_stats.h"
#include "model/analysis/time_category.h"
#include "model/analysis/trace_analysis.h"
#include "model/analysis/track_names.h"

namespace stepline::analysis {

// The report's options are the analysis options (min_gap_ns: shortest gap listed in `gaps`).
using ReportOptions = AnalysisOptions;

struct DeviceReport {
  int32_t device_id = -1;
  std::string name;
  DeviceKind kind = DeviceKind::kGpu;
  TimeRange active_span;             // first kernel start .. last kernel end
  DurNs busy_ns = 0;                 // union of kernel time
  DurNs idle_ns = 0;                 // active span - busy: the sum of its gaps
  DurNs kernel_ns = 0;               // summed kernel durations
  CategoryNs breakdown_total{};      // summed over the steps
  CauseNs idle_by_cause{};           // its gaps (the active span), by cause; sums to idle_ns
  CauseNs step_idle_by_cause{};      // no-kernel time inside the steps, by cause
  std::vector<StepBreakdown> steps;  // one per Report::steps entry
};

// A step's critical path (critical_path/critical_path.h), names resolved.
struct ReportCriticalPath {
  DurNs dur_ns = 0;
  PathKindNs by_kind_ns{};
  std::vector<SliceId> slices;                         // in time order
  std::vector<std::pair<std::string_view, DurNs>> top;  // largest first
};

struct ReportStep {
  std::string name;
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;         // as recorded by its marker
  DurNs window_dur_ns = 0;  // its window (Step::window_dur_ns): dur_ns unless the next step overlaps it
  CategoryNs breakdown{};   // primary device; sums to window_dur_ns
  CauseNs idle_by_cause{};  // primary device
  StepPhase phase = StepPhase::kNone;  // Step::phase, batch, tokens (serving_steps.h)
  int64_t batch = -1, tokens = -1;
  ReportCriticalPath critical_path{};
  StepEfficiency efficiency{};  // FLOPs, MFU, memory-bound, communication, launches, samples/s
};

struct ReportEvent {
  std::string_view name;
  uint32_t thread = 0;  // index into Report::threads (host thread, or the GPU stream of a copy)
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  DurNs overlap_ns = 0;
};

struct ReportGap {
  uint32_t device = 0;  // index into Report::devices
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  int32_t step = -1;  // index into Report::steps; -1 when in no step
  IdleCause cause = IdleCause::kOther;
  uint32_t events_begin = 0, events_end = 0;  // its cause events: Report::CauseEvents(gap)
  std::string_view next_kernel;
  DurNs launch_delay_ns = -1;  // -1 unknown
};

struct ReportOp {
  std::string_view name;
  OpKind kind = OpKind::kHostOp;
  uint64_t count = 0;
  DurNs total_ns = 0, self_ns = 0, avg_ns = 0, min_ns = 0, max_ns = 0;
  double percent = 0, cumulative_percent = 0;
  // Efficiency (ResolveEfficiency): FLOPs summed over the instances whose FLOPs
  // are known, -1 when none is; TFLOP/s on their GPU time, -1 unknown.
  double flops = -1, achieved_tflops = -1, intensity = -1;
  OpBound bound = OpBound::kUnknown;
  int64_t graph_id = -1;  // kGraphReplay rows: the graph; -1 otherwise
};

struct ReportKernel {
  std::string_view name;
  std::array<int64_t, 3> grid{}, block{};  // 0 = unknown
  int64_t registers_per_thread = -1, shared_memory_bytes = -1;
  double occupancy_percent = -1;
  std::string_view framework_op;  // "" = unknown
  uint64_t count = 0;
  DurNs total_ns = 0, avg_ns = 0, min_ns = 0, max_ns = 0;
  OpBound bound = OpBound::kUnknown;  // by the kernel's name (efficiency_flops.h)
  int64_t graph_id = -1, graph_node_id = -1;  // KernelStat's; -1 outside graphs / unknown
};

// An outlier step (OutlierSteps), resolved.
struct ReportOutlierStep {
  uint32_t step = 0;  // index into Report::steps
  std::string name;
  DurNs dur_ns = 0, excess_ns = 0;
  std::string_view cause;                // TimeCategoryName of the category that grew most; "" none
  std::vector<std::string_view> blamed;  // host event names, largest excess first
  std::vector<DurNs> blamed_excess_ns;   // per blamed name
};

struct Report {
  StepSource step_source = StepSource::kNone;
  std::string step_source_sentence;  // StepSourceSentence: where the steps came from, one line
  uint32_t steps_overlap_count = 0;  // StepSet's steps_overlap diagnostic
  DurNs steps_overlap_max_ns = 0;
  std::vector<ReportOutlierStep> outlier_steps;
  DurNs outlier_threshold_ns = 0;                // 0: too few steps to judge
  std::string step_error;         // e.g. an invalid --steps regex
  std::string primary_device;     // name; "" without GPU activity
  int primary_device_index = -1;  // into `devices`
  std::vector<DeviceReport> devices;
  std::vector<ReportStep> steps;        // primary device
  CategoryNs breakdown_total{};         // primary device, summed over steps
  CauseNs idle_by_cause{};              // primary device's gaps, by cause
  std::vector<ReportGap> gaps;          // every device's gaps >= min_gap_ns, by start
  std::vector<ReportEvent> gap_events;  // all gaps' cause events, gap by gap
  std::vector<std::string> threads;     // display names of the tracks events refer to
  std::vector<ReportOp> ops;            // sorted by total_ns descending
  std::vector<ReportOp> step_markers;   // OpStats::step_markers: not ops, listed on request
  std::vector<ReportKernel> kernels;    // sorted by total_ns descending
  std::vector<GraphReplay> graph_replays;  // TraceAnalysis::graphs.replays, by start
  XlaStats xla;                         // XLA ops and modules (views into the trace)
  std::vector<std::string> recommendations;
  std::vector<std::string> notes;             // TraceAnalysis::notes: figures left out or narrowed, and why
  size_t complete_steps = 0;                  // TraceAnalysis::complete_steps
  // TraceAnalysis::SummedStepCount: the steps breakdown_total and step_stats sum.
  size_t SummedStepCount() const {
    return complete_steps < steps.size() && !notes.empty() ? complete_steps : steps.size();
  }
  std::vector<ReportMemory> memory;          // per memory pool
  std::vector<ReportAllocation> allocations;  // every pool's allocation table, pool by pool
  StepStats step_stats;               // mean and sample std of the step times
  double gpu_busy_percent = 0;        // GpuBusyPercent of the primary device's breakdown_total
  std::string_view top_blamed_event;  // TopBlamedEvent: the host event blamed for the most idle time; "" none
  DurNs top_blamed_ns = 0;
  uint64_t top_blamed_gaps = 0;
  ServingEngine step_engine = ServingEngine::kNone;  // StepSet::engine
  std::vector<PhaseStat> phases;                     // TraceAnalysis::phases
  ReportCriticalPath critical_path_total;            // summed over the steps (slices left empty)
  std::string critical_path_sentence;
  // The run's efficiency figures (ops and per-kernel bounds are on the rows above).
  EfficiencyAnalysis efficiency;
  std::vector<std::string_view> top_memory_bound;  // kernel names of efficiency.top_memory_bound

  std::span<const ReportEvent> CauseEvents(const ReportGap& g) const {
    return std::span<const ReportEvent>(gap_events).subspan(g.events_begin, g.events_end - g.events_begin);
  }
  const std::string& DeviceName(const ReportGap& g) const { return devices[g.device].name; }
  std::string_view StepName(const ReportGap& g) const { return g.step < 0 ? std::string_view() : steps[g.step].name; }
};

// Fills the efficiency fields of `report`'s steps, ops and kernels (efficiency_report.cpp).
void ResolveEfficiency(const Trace& trace, const TraceAnalysis& analysis, Report* report);

// Turns ids into names; lists the gaps of at least analysis.min_gap_ns.
Report ResolveReport(const Trace& trace, const TraceAnalysis& analysis);
Report ComputeReport(const Trace& trace, const ReportOptions& options = {});

}  // namespace stepline::analysis
