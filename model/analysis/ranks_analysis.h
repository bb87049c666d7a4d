// AnalyzeRanks: every rank of one distributed run side by side.
// Input: one RankSummary per rank (ranks_input.h), no traces. It matches the
// collective instances across ranks, estimates each rank's clock offset,
// splits collective time into wait and transfer, finds the straggler and why
// it is late. Definitions: docs/ranks.md.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/analysis/ranks_input.h"

namespace stepline::analysis {

struct RankRow {
  size_t input = 0;          // index into the AnalyzeRanks input
  int32_t rank = -1;
  DurNs clock_offset_ns = 0;  // subtract from this rank's times to align it with the reference rank
  int64_t steps = 0;
  DurNs step_mean_ns = 0;
  CategoryNs breakdown_per_step{};  // the primary device's step breakdown, mean per step
  CauseNs idle_by_cause_per_step{};
  DurNs collective_wait_ns_per_step = 0;      // the breakdown's `collective` time spent waiting
  DurNs collective_transfer_ns_per_step = 0;  // the rest of `collective`
  DurNs late_ns = 0;          // mean over matched instances of arrival - median arrival
  double overlap_percent = 0;  // share of collective transfer time with a compute kernel running
  uint64_t matched = 0;       // its collective kernels in matched instances
  // Per step of this rank (its own step order): mean lateness of the matched
  // instances starting in that step; 0 for a step with none. The heat map.
  std::vector<DurNs> late_by_step;
};

struct Straggler {
  int32_t rank = -1;
  size_t row = 0;            // index into RanksAnalysis::ranks
  DurNs late_ns = 0;
  std::string cause;         // an IdleCause name ("input", ...), or "slow_kernel"
  std::vector<std::string> blamed;  // host events (or the slow kernel), most time first
  std::string collective;    // the collective it is late at ("AllReduce"), "" when several
};

struct RanksAnalysis {
  std::vector<RankRow> ranks;      // the input order
  std::optional<Straggler> straggler;
  uint64_t matched = 0;            // instances found on every rank
  uint64_t unmatched = 0;          // collective kernels of instances missing on some rank
  int32_t world_size = -1;         // the ranks' common world_size; -1 unknown
  std::vector<int32_t> missing_ranks;  // 0..world_size-1 with no input
  std::vector<std::string> recommendations;
  std::string error;               // non-empty: mixed runs (the message names the files)
};

// `ranks` must have distinct rank numbers (RankSummary::rank >= 0).
RanksAnalysis AnalyzeRanks(std::span<const RankSummary> ranks);

// The per-rank input of an instance: its arrival on the aligned clock and wait.
// Exposed for tests and the window.
struct InstanceTiming {
  std::string group, name;
  std::string op;                   // XLA: the HLO instruction; "" otherwise
  int64_t key = 0;                  // seq, else ordinal
  std::vector<uint32_t> index;      // per rank: index into its collectives
  std::vector<TimeNs> arrival;      // per rank, aligned
  TimeNs last_arrival = 0, median_arrival = 0;
};
std::vector<InstanceTiming> MatchInstances(std::span<const RankSummary> ranks, uint64_t* unmatched);

}  // namespace stepline::analysis
