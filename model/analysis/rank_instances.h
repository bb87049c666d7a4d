// AlignedInstances: the matched collective instances of a distributed run on
// the aligned clock (each rank's times minus its clock offset), indexed per
// rank so the ranks view's timeline can find, for a click on one rank's
// collective, the same instance on every rank, and each rank's wait in it.
// Also the window of one step across the ranks, for aligning on a step.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/analysis/ranks_analysis.h"

namespace stepline::analysis {

inline constexpr uint32_t kNoInstance = UINT32_MAX;

struct AlignedInstances {
  // As MatchInstances, arrivals aligned (arrival[r] = start - offset of
  // input rank r), last_arrival and median_arrival set.
  std::vector<InstanceTiming> instances;
  // Per input rank, per collective of that rank: its instance, or kNoInstance
  // when it matched no instance on every rank.
  std::vector<std::vector<uint32_t>> of_collective;
  std::vector<DurNs> offset;  // per input rank: its clock offset (RankRow::clock_offset_ns)
};

// `analysis` is AnalyzeRanks(ranks) (for the clock offsets).
AlignedInstances AlignInstances(std::span<const RankSummary> ranks, const RanksAnalysis& analysis);

// One rank's part in an instance, aligned: its arrival, the last rank's
// arrival (clamped to its end: the wait is [arrival, wait_end)), and its end.
struct InstanceSpan {
  TimeNs arrival = 0, wait_end = 0, end = 0;
};
InstanceSpan SpanOnRank(const AlignedInstances& a, std::span<const RankSummary> ranks, uint32_t instance, size_t rank);

// The matched instance whose collective on input rank `rank` covers aligned
// time `t`, or, when none does, the nearest one within `slop_ns` (a click on
// a collective narrower than a pixel); nullopt when none.
std::optional<uint32_t> InstanceAt(const AlignedInstances& a, std::span<const RankSummary> ranks, size_t rank, TimeNs t,
                                   DurNs slop_ns);

// Step `step` on the aligned clock: the earliest start and latest end of the
// ranks' step `step` (RankLanes::steps); `origin` gets the reference rank's
// (the lowest rank's) start. nullopt when no rank has that step.
std::optional<TimeRange> AlignedStepWindow(std::span<const RankSummary> ranks, const RanksAnalysis& analysis,
                                           size_t step, TimeNs* origin);

}  // namespace stepline::analysis
