// StepStats: the spread of the step times, one definition for the window,
// `report` and `diff`. The spread is the *sample* standard deviation (n - 1):
// the profiled steps are a sample of the run. Labels say "sample std".
#pragma once

#include <cstdint>
#include <vector>

#include "model/analysis/step_set.h"
#include "model/analysis/time_category.h"

namespace stepline::analysis {

struct StepStats {
  uint64_t count = 0;
  DurNs total_ns = 0;
  DurNs mean_ns = 0;        // total / count, rounded to nearest
  DurNs sample_std_ns = 0;  // sqrt(sum (d - mean)^2 / (count - 1)), rounded; 0 for fewer than 2 steps
  DurNs min_ns = 0, max_ns = 0;
  // Nearest-rank percentiles of the recorded step durations: the
  // smallest duration with at least p% of the steps at or below it.
  DurNs p50_ns = 0, p90_ns = 0, p99_ns = 0;
  DurNs window_total_ns = 0;  // sum of the steps' windows: the breakdown's total
};

// Nearest-rank percentile (0 < p <= 100) of `sorted` (ascending); 0 if empty.
DurNs NearestRankPercentile(const std::vector<DurNs>& sorted, double p);

StepStats ComputeStepStats(const StepSet& steps);

// GPU busy, the one definition every view uses: the share of the summed step
// time in which a kernel (compute or collective) runs on the device, from its
// step breakdown (sums to the step time). Percent, 0..100; 0 without steps.
double GpuBusyPercent(const CategoryNs& breakdown_total);

}  // namespace stepline::analysis
