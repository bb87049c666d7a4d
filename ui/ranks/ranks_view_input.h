// RanksViewInput: what the ranks view and its timeline draw, the rank
// summaries and their analysis (issue #20).
#pragma once

#include <span>
#include <string>

#include "model/analysis/ranks_analysis.h"

namespace stepline::ui {

struct RanksViewInput {
  std::span<const analysis::RankSummary> ranks;  // indexed by RankRow::input
  const analysis::RanksAnalysis* analysis = nullptr;
  std::string title;  // what was opened, for the header
};

}  // namespace stepline::ui
