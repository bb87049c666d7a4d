// Compare: two runs of the same workload side by side, "A" the
// baseline and "B" the candidate. Built from each run's Trace and its
// TraceAnalysis (the window already has one per trace), so nothing is
// analysed twice; it works on ids and resolves names only for its rows. Every
// delta is B - A. The Comparison owns its strings (it outlives both traces);
// the StringIds an ops-diff row carries index its run's StringPool.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/op_name_normalize.h"
#include "model/analysis/op_stats.h"
#include "model/analysis/phase_compare.h"
#include "model/analysis/step_verdict.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {

struct CompareOptions {
  AnalysisOptions analysis;     // only the Trace overload runs the analysis with these
  bool normalize_names = true;  // merge op names that differ only by NormalizeOpName noise
};

// One run as Compare reads it: the trace (names, span), its analysis, and the
// path shown for it.
struct CompareRun {
  const Trace& trace;
  const TraceAnalysis& analysis;
  std::string_view path;
};

// One run, reduced to what the compare views show. Per-step means divide by
// `steps` and round toward zero; without steps every mean is 0.
struct CompareSide {
  std::string path;
  std::string primary_device;  // "" without GPU activity
  StepSource step_source = StepSource::kNone;
  size_t steps = 0;
  DurNs step_mean_ns = 0;
  // Kernel time (compute + collective) as a share of the summed step time on
  // the primary device, 0..100; 0 without steps.
  double gpu_busy_percent = 0;
  double mfu_percent = -1;       // EfficiencyAnalysis::mfu_percent; -1 unknown
  double samples_per_s = -1;     // EfficiencyAnalysis::samples_per_s; -1 without a batch size
  std::string device_word = "GPU";  // the primary device's kind: "GPU", "TPU", "Device" (headline.h)
  CategoryNs breakdown_mean{};   // per step; sums to step_mean_ns up to rounding
  CauseNs idle_by_cause_mean{};  // no-kernel time per step, by cause
  // The steps, in time order (same length each): the per-step series.
  std::vector<std::string> step_names;
  std::vector<TimeNs> step_start_ns;
  std::vector<DurNs> step_dur_ns;
  std::vector<CategoryNs> step_breakdown;
  std::vector<CauseNs> step_idle_by_cause;
  // The default alignment anchor of the timelines: see FirstFullStep. -1 when
  // there are no steps.
  int first_full_step = -1;
  // The durations of the steps the capture did not cut (IsCutStep), in time
  // order: the sample the verdict tests.
  std::vector<DurNs> full_step_dur_ns;
  // The run's serving phases (TraceAnalysis::phases); `serving`: some step is
  // prefill, decode or mixed.
  std::vector<PhaseStat> phases;
  bool serving = false;
};

// One memory pool's peaks, as the summary's memory rows compare them.
struct MemoryPeak {
  std::string pool;
  int64_t peak_allocated_bytes = 0;
  int64_t peak_reserved_bytes = -1;  // -1 not recorded
};
std::vector<MemoryPeak> MemoryPeaks(const TraceAnalysis& analysis);

// Which row of the summary table; `label` below is the display text.
enum class SummaryGroup : uint8_t {
  kRun = 0,     // steps, mean step time, GPU busy %
  kBreakdown,   // one row per TimeCategory, per-step mean
  kIdleByCause,  // one row per IdleCause, per-step mean
  kMemory,       // per memory pool of either run: "<pool> peak allocated" (and "... peak reserved"), bytes
  // When both runs are serving runs: per phase, "<phase> mean step", "<phase> tokens/s" and
  // "<phase> MFU" (the last two when both runs know them), right after the kRun rows; the
  // kRun "mean step" row is left out then (it would weigh prefill steps against decode steps).
  kPhase
};
enum class SummaryUnit : uint8_t { kCount = 0, kNs, kPercent, kBytes, kPerSecond, kRate };  // kPerSecond: samples/s; kRate: tokens/s
// Which direction of change is an improvement.
enum class Sense : uint8_t { kLowerIsBetter = 0, kHigherIsBetter, kNeutral };
enum class Change : uint8_t { kNone = 0, kImprovement, kRegression };

struct SummaryRow {
  SummaryGroup group = SummaryGroup::kRun;
  std::string label;  // "steps", "mean step", "GPU busy" ("TPU busy"), then TimeCategoryName / IdleCauseName
  SummaryUnit unit = SummaryUnit::kNs;
  Sense sense = Sense::kLowerIsBetter;
  double a = 0, b = 0;
  double delta = 0;  // b - a
  // 100 * delta / a. When a == 0: 0 if b == 0 too, else NaN (no meaningful
  // percentage; print "new" or "n/a").
  double delta_percent = 0;
  bool lower_is_better() const { return sense == Sense::kLowerIsBetter; }
};
// kImprovement / kRegression by the row's sense; kNone for no change or a
// neutral row. Exact: any nonzero delta counts (the UI may add a tolerance).
Change ChangeOf(const SummaryRow& row);
// The delta_percent rule above, for any pair of values.
double DeltaPercent(double a, double b);

enum class Presence : uint8_t { kBoth = 0, kOnlyA, kOnlyB };
std::string_view PresenceName(Presence p);  // "both", "only_a", "only_b"

// One (name, kind) of either run. Totals are over the whole trace (as in
// Report::ops), not only inside steps.
struct OpDiffRow {
  std::string name;  // normalized when CompareOptions::normalize_names
  OpKind kind = OpKind::kHostOp;
  uint64_t a_count = 0, b_count = 0;
  DurNs a_total_ns = 0, b_total_ns = 0;
  DurNs delta_ns = 0;  // b_total_ns - a_total_ns
  // b_total_ns / b steps - a_total_ns / a steps (a side without steps
  // divides by 1): fair when the runs captured different step counts.
  double delta_per_step_ns = 0;
  Presence presence = Presence::kBoth;
  uint32_t merged_names = 1;  // distinct raw names (over both runs) folded into this row
  // The raw op names folded into this row, as ids into A's (B's) StringPool:
  // the window highlights their slices without matching names again.
  std::vector<StringId> a_names, b_names;
};

struct Comparison {
  CompareSide a, b;
  // kRun rows, then kPhase (serving runs), kBreakdown, kIdleByCause, kMemory.
  std::vector<SummaryRow> summary;
  // Phase with phase, when both runs are serving runs (else empty): what the
  // kPhase rows show and `diff --json` gives as `phases`.
  std::vector<PhaseCompareRow> phases;
  std::vector<OpDiffRow> ops;       // by |delta_ns| descending, then name, then kind
  bool names_normalized = true;
  StepVerdict verdict;  // B's full steps against A's (step_verdict.h)
};

// The comparison of two analysed runs.
Comparison Compare(const CompareRun& a, const CompareRun& b, const CompareOptions& options = {});
// Convenience: runs ComputeAnalysis(options.analysis) on both traces first.
Comparison Compare(const Trace& a, const Trace& b, const CompareOptions& options = {}, std::string_view a_path = {},
                   std::string_view b_path = {});

// --- Building blocks (used by Compare, exposed for tests and the UI) -------

CompareSide MakeCompareSide(const CompareRun& run);
std::vector<SummaryRow> BuildSummaryRows(const CompareSide& a, const CompareSide& b);
// Peak allocated (and reserved, when either run records it) per pool, pools
// of A first, then those only B has; a pool a run lacks counts 0 there.
void AddMemorySummaryRows(std::span<const MemoryPeak> a, std::span<const MemoryPeak> b, std::vector<SummaryRow>* rows);
// The kPhase rows of `phases` (ComparePhases), appended to *rows.
void AddPhaseSummaryRows(std::span<const PhaseCompareRow> phases, std::vector<SummaryRow>* rows);
// Merges both op tables by (name, kind), names read from each run's pool and
// optionally normalized first; sorted like Comparison::ops. `a_steps` and
// `b_steps` are the step counts the per-step deltas divide by.
std::vector<OpDiffRow> DiffOps(const StringPool& a_names, std::span<const OpStat> a, size_t a_steps,
                               const StringPool& b_names, std::span<const OpStat> b, size_t b_steps,
                               bool normalize_names);
// Sorts by |delta_ns| descending, then name, then kind.
void SortByAbsDelta(std::vector<OpDiffRow>* rows);

// The index of the first step that the capture did not cut. A capture can
// start or stop in the middle of a step, so only the first and the last step
// can be cut. The first step is cut when it starts at or before the trace's
// first timestamp (nothing earlier was recorded, so it may have begun before
// the capture) or, with an unknown span, when it is shorter than half the
// median step; likewise the last step at the end. Interior steps are always
// full. Returns the first full step, 0 when every step is cut (one or two
// steps), -1 without steps.
int FirstFullStep(std::span<const TimeNs> start_ns, std::span<const DurNs> dur_ns, TimeRange trace_span);
// Whether step i is cut (the rule above); false for interior steps.
bool IsCutStep(std::span<const TimeNs> start_ns, std::span<const DurNs> dur_ns, size_t i, TimeRange trace_span);

}  // namespace stepline::analysis
