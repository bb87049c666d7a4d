// Named baselines of `stepline diff`: one JSON file per name
// (baseline_json.h) in $XDG_CONFIG_HOME/stepline/baselines/ (else
// ~/.config/stepline/baselines/), so CI can compare a run against a saved
// one without keeping the baseline's trace.
#pragma once

#include <optional>
#include <string>

#include "model/analysis/saved_run.h"
#include "model/result.h"

namespace stepline::app {

// The file of `name`, or an error: names are [A-Za-z0-9._-], not starting
// with '.', so a name never leaves the folder.
Result<std::string, std::string> BaselinePath(const std::string& name);

// nullopt when no baseline of that name exists; an error when it exists but
// cannot be read.
Result<std::optional<analysis::SavedRun>, std::string> LoadBaseline(const std::string& name);
// Writes (replaces) the baseline; "" or the error.
std::string SaveBaseline(const std::string& name, const analysis::SavedRun& run);

}  // namespace stepline::app
