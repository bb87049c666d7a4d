// How much memory loading a rank set holds at once, for the question before
// the load (the window's Load anyway / Cancel, the line `stepline ranks`
// prints at the start). LoadRanks loads `threads` ranks at a time and frees
// each rank's model once it is summarized, so the peak is the models of the
// `threads` largest ranks together, not the whole set; the summaries kept
// are small. The ranks view's detail cache loads again one rank at a time
// afterwards (rank_detail_cache.h), below that peak.
#pragma once

#include <string>
#include <vector>

#include "loaders/memory_estimate.h"

namespace stepline::app {

// The estimate of loading `files` `threads` at a time: the sum of the
// `threads` largest per-file estimates (loaders::EstimateLoadMemory), the
// process counted once. Its basis says how many of how many and what.
loaders::MemoryEstimate EstimateRankSetMemory(const std::vector<std::string>& files, int threads);

// The warning before loading the rank set of `paths` (CollectRankFiles:
// directories walked, `run_dir` of a TensorBoard tree, "" the newest):
// "<subject>: the 2 ranks loaded at once need about ... but only ... is
// available (...)"; "" when it fits, when either number is unknown, or when
// the files cannot be collected (the load says why).
std::string RankSetMemoryWarning(const std::string& subject, const std::vector<std::string>& paths, int threads,
                                 const std::string& run_dir, const loaders::MemoryBudget& budget);

}  // namespace stepline::app
