// A saved run (analysis::SavedRun) as JSON: what `stepline diff
// --save-baseline NAME` writes and `--baseline NAME` reads back. Versioned;
// a file of another version is refused rather than misread.
#pragma once

#include <string>
#include <string_view>

#include "model/analysis/saved_run.h"
#include "model/result.h"

namespace stepline::app {

inline constexpr int kBaselineVersion = 1;

std::string SavedRunToJson(const analysis::SavedRun& run);
Result<analysis::SavedRun, std::string> SavedRunFromJson(std::string_view text);

}  // namespace stepline::app
