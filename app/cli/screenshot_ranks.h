// The ranks view as a PNG, for `stepline screenshot PATH... --view ranks`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ui/theme.h"

namespace stepline::app {

// What the picture shows.
struct RanksShotView {
  bool run_list = false;  // the run picker's list shown (a TensorBoard tree of several runs)
  int step = 0;           // the timeline aligned on this step
  // The timeline's range in ms since that step's start; unset: the whole
  // step. Ranks zoomed in past their summaries are loaded in detail
  // (RankDetailCache) before the picture is taken.
  std::optional<std::pair<double, double>> range_ms;
  std::string headlines_path;  // "": none; else the headline figures drawn (headline_dump.h)
  ui::theme::ThemeKind theme = ui::theme::ThemeKind::kDark;
};

// Loads the rank set of `paths` (rank_set.h) and renders its ranks view at
// width x height into `out_path`. Returns the exit code; errors on `err`.
int ScreenshotRanks(const std::vector<std::string>& paths, const std::string& out_path, int width, int height,
                    double scale, bool force, const RanksShotView& view, std::ostream& out, std::ostream& err);

}  // namespace stepline::app
