// RanksViewInput: what the ranks view and its timeline draw, the rank
// summaries and their analysis.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/analysis/ranks_analysis.h"
#include "ui/ranks/rank_detail_source.h"

namespace stepline::ui {

// One run of a TensorBoard tree, for the view's run picker.
struct RanksRunChoice {
  std::string run;    // the run folder's name
  std::string dir;    // what choosing it opens
  std::string date;   // its newest trace file's time, local "YYYY-MM-DD HH:MM"
  std::string size;   // all its trace files
  size_t hosts = 0;   // trace files (hosts or ranks)
  bool current = false;  // the run on screen
};

struct RanksViewInput {
  std::span<const analysis::RankSummary> ranks;  // indexed by RankRow::input
  const analysis::RanksAnalysis* analysis = nullptr;
  std::string title;  // what was opened, for the header
  std::vector<RanksRunChoice> runs;  // newest first; empty unless a TensorBoard tree was opened
  // Full slices of zoomed-in ranks (ranks_detail.h); null: summaries only.
  RankDetailSource* details = nullptr;
};

}  // namespace stepline::ui
