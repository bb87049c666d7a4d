// OutlierSteps: the steps much slower than the typical one, and what differs
// in them: the breakdown category that grew most against the
// median step, and the host events that run in them but not (or much shorter)
// in typical steps. A periodic checkpoint that idles the GPU every few steps
// shows up here even when the mean step looks healthy.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/analysis/step_breakdown.h"
#include "model/analysis/step_set.h"
#include "model/analysis/time_category.h"
#include "model/trace.h"

namespace stepline::analysis {

// A step is an outlier when dur_ns > median + max(kMadFactor * MAD,
// kMedianShare * median), MAD = median |dur - median|; with fewer than
// kMinSteps steps there is no typical step to compare against.
inline constexpr double kOutlierMadFactor = 3.0;
inline constexpr double kOutlierMedianShare = 0.2;
inline constexpr size_t kOutlierMinSteps = 4;
// A host event is blamed in an outlier step when its time there exceeds its
// median time in typical steps by at least kBlameMinShare of the step's excess
// and its typical time is at most half its time in the outlier.
inline constexpr double kBlameMinShare = 0.05;
inline constexpr size_t kMaxBlamedEvents = 5;

struct OutlierBlame {
  StringId name;
  DurNs excess_ns = 0;  // its time in the step - its median time in typical steps
};

struct OutlierStep {
  uint32_t step = 0;                              // index into StepSet::steps
  DurNs excess_ns = 0;                            // dur_ns - median
  bool has_cause = false;                         // false without a breakdown (no device) or when no category grew
  TimeCategory cause = TimeCategory::kIdleOther;  // grew most against the median step
  std::vector<OutlierBlame> blamed;               // largest excess first; nested repeats dropped
};

struct OutlierSteps {
  DurNs median_ns = 0, mad_ns = 0, threshold_ns = 0;  // threshold 0: too few steps to judge
  std::vector<OutlierStep> steps;                     // in step order
  DurNs excess_total_ns = 0;                          // summed excess of the outliers
};

// The outlier threshold of `durations` (any order): median + max(3 MAD, 20%
// of the median); 0 with fewer than kOutlierMinSteps durations.
DurNs OutlierThresholdNs(std::vector<DurNs> durations, DurNs* median_ns = nullptr, DurNs* mad_ns = nullptr);

// `breakdowns`: one per step (the primary device's), or empty. Host events are
// the slices of host-thread tracks, counted inside each step's window; step
// markers and events that wrap the whole step are not candidates.
OutlierSteps ComputeOutlierSteps(const Trace& trace, const StepSet& steps, std::span<const StepBreakdown> breakdowns);

// The short name of a host event for sentences: a Python frame
// "torch/serialization.py(331): save" -> "save"; otherwise the name itself.
std::string ShortEventName(std::string_view name);

// The recommendation sentence when the outliers cost at least 5% of
// `total_ns` (the summed step time); "" otherwise.
std::string OutlierRecommendation(const Trace& trace, const OutlierSteps& outliers, size_t step_count, DurNs total_ns);

}  // namespace stepline::analysis
