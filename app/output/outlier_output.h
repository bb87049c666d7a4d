// The outlier-step part of `stepline report`: the `outlier_steps`
// JSON array and the "Outlier steps" text section.
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"outlier_steps":[{name, dur_ns, excess_ns, cause, blamed[]}]`.
void AppendOutlierStepsJson(const analysis::Report& report, std::string* out);
// "Outlier steps" section; nothing without outliers.
void WriteOutlierText(const analysis::Report& report, std::ostream& out);

}  // namespace stepline::app
