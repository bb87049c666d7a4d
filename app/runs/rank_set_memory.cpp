// The memory a rank set's load holds at once; see rank_set_memory.h.
#include "app/runs/rank_set_memory.h"

#include <algorithm>
#include <sstream>

#include "app/runs/rank_set.h"

namespace stepline::app {

loaders::MemoryEstimate EstimateRankSetMemory(const std::vector<std::string>& files, int threads) {
  std::vector<loaders::MemoryEstimate> each;
  each.reserve(files.size());
  for (const std::string& f : files) each.push_back(loaders::EstimateLoadMemory(f));
  std::sort(each.begin(), each.end(), [](const loaders::MemoryEstimate& a, const loaders::MemoryEstimate& b) {
    return a.needed_bytes > b.needed_bytes;
  });
  // As LoadRanks: never more threads than files.
  each.resize(std::min(each.size(), static_cast<size_t>(std::max(1, threads))));
  loaders::MemoryEstimate sum = loaders::AddEstimates(each);
  if (sum.needed_bytes == 0) return sum;
  const std::string n = std::to_string(files.size());
  std::string what;
  if (each.size() == files.size()) {
    what = files.size() == 1 ? "1 rank file: " : n + " rank files at once: ";
  } else if (each.size() == 1) {
    what = "the largest of " + n + " rank files, loaded one at a time: ";
  } else {
    what = "the " + std::to_string(each.size()) + " largest of " + n + " rank files at once: ";
  }
  sum.basis = what + sum.basis;
  return sum;
}

std::string RankSetMemoryWarning(const std::string& subject, const std::vector<std::string>& paths, int threads,
                                 const std::string& run_dir, const loaders::MemoryBudget& budget) {
  if (budget.bytes == UINT64_MAX) return {};  // nothing known: no need to walk the folders
  std::vector<std::string> files;
  RunSelection selection;
  selection.wanted_dir = run_dir;
  std::ostringstream ignored;  // the load names the other runs of a tree itself
  if (!CollectRankFiles(paths, &files, ignored, &selection).empty()) return {};
  const loaders::MemoryEstimate estimate = EstimateRankSetMemory(files, threads);
  const size_t at_once = std::min(files.size(), static_cast<size_t>(std::max(1, threads)));
  const std::string they = at_once > 1         ? "the " + std::to_string(at_once) + " ranks loaded at once need"
                           : files.size() == 1 ? "the rank needs"
                                               : "the largest rank needs";
  return loaders::MemoryWarning(subject, they, estimate, budget);
}

}  // namespace stepline::app
