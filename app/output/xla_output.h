// The XLA part of `stepline report`: the `xla_modules` and
// `xla_ops` JSON arrays and the text section (XProf's HLO module and op tables).
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"xla_modules":[...],"xla_ops":[...]` (empty arrays for non-XLA traces).
void AppendXlaJson(const analysis::Report& report, std::string* out);
// "XLA modules" and "Top XLA ops" sections; nothing for non-XLA traces.
void WriteXlaText(const analysis::Report& report, std::ostream& out);

}  // namespace stepline::app
