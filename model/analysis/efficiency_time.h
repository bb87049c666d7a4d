// The time side of the efficiency analysis, per step of the primary device:
// memory-bound kernel time, collectives not hidden behind compute, launch
// overhead, and samples/s. Fills those fields of an EfficiencyAnalysis.
#pragma once

#include "model/analysis/efficiency.h"

namespace stepline::analysis {

void ComputeEfficiencyTimes(const Trace& trace, const TraceAnalysis& analysis, const LaunchIndex& launches,
                            const EfficiencyOptions& options, EfficiencyAnalysis* e);

// Intervals covered by both sorted disjoint lists.
std::vector<Interval> IntersectIntervals(const std::vector<Interval>& a, const std::vector<Interval>& b);

}  // namespace stepline::analysis
