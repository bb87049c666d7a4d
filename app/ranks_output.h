// What `stepline ranks` prints: the text table, the --json object (keys of
// issue #20) and the --csv table, from the per-rank summaries and their
// AnalyzeRanks result.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "app/profile_runs.h"
#include "model/analysis/ranks_analysis.h"

namespace stepline::app {

struct RankFailure {
  std::string path;
  std::string error;
};

struct RanksRun {
  std::vector<analysis::RankSummary> ranks;  // loaded, sorted by rank
  std::vector<RankFailure> failed;           // files that did not load
  analysis::RanksAnalysis analysis;
  double load_ms = 0;                        // wall time of loading + summarizing every rank
  // A TensorBoard tree given as the one path: its runs (newest first), the
  // one loaded, and the tree's root, so the window can offer the others.
  std::vector<ProfileRun> runs;
  size_t run_index = 0;
  std::string runs_root;
};

void WriteRanksText(const RanksRun& run, std::ostream& out);
void WriteRanksJson(const RanksRun& run, std::ostream& out);
// One row per rank; the columns of the JSON's `ranks` entries, flattened.
void AppendRanksCsv(const RanksRun& run, std::string* out);

}  // namespace stepline::app
