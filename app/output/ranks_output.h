// What `stepline ranks` prints: the text table, the --json object (keys in
// docs/cli.md) and the --csv table, from the per-rank summaries and their
// AnalyzeRanks result (RanksRun, app/runs/rank_set.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "app/runs/rank_set.h"
#include "model/analysis/ranks_analysis.h"

namespace stepline::app {

void WriteRanksText(const RanksRun& run, std::ostream& out);
void WriteRanksJson(const RanksRun& run, std::ostream& out);
// One row per rank; the columns of the JSON's `ranks` entries, flattened.
void AppendRanksCsv(const RanksRun& run, std::string* out);

}  // namespace stepline::app
