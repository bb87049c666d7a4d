// The ranks view as a PNG, for `stepline screenshot PATH... --view ranks`.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace stepline::app {

// Loads the rank set of `paths` (rank_set.h) and renders its ranks view at
// width x height into `out_path`; `run_list`: the run picker's list shown
// (a TensorBoard tree of several runs). Returns the exit code; errors on `err`.
int ScreenshotRanks(const std::vector<std::string>& paths, const std::string& out_path, int width, int height,
                    double scale, bool force, bool run_list, std::ostream& out, std::ostream& err);

}  // namespace stepline::app
