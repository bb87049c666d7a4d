// A RankSummary as JSON and back: the member `rank_summary` that `stepline
// report --json` writes for a rank's trace, and that `stepline ranks
// --from-reports DIR` reads, so ranks can be summarized where they were
// recorded and merged elsewhere without the traces. Standard library only.
#pragma once

#include <string>
#include <string_view>

#include "model/analysis/ranks_input.h"
#include "model/result.h"

namespace stepline::analysis {

inline constexpr int kRankSummaryVersion = 1;

// One JSON object (no trailing newline). Breakdown and causes are arrays in
// TimeCategory / IdleCause order; each collective is an object with short keys
// (see docs/ranks.md).
std::string RankSummaryToJson(const RankSummary& summary);

// The `rank_summary` member of a whole `report --json` document (or the bare
// summary object). Errors name `name`, the byte offset and what was expected.
Result<RankSummary, std::string> RankSummaryFromJson(std::string_view text, const std::string& name);

}  // namespace stepline::analysis
