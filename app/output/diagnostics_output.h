// The diagnostics of a loaded trace as `report` and `diff` print them: a
// data-loss warning first (the window's banner text), then one line per
// diagnostic; and the same as JSON members. A partial file is never
// analysed silently.
#pragma once

#include <iosfwd>
#include <string>

#include "model/trace.h"

namespace stepline::app {

// Text, for the top of a report: nothing when there are no diagnostics;
// else "WARNING: <banner>" when data was lost, then "diagnostics  N in K
// kinds" and one indented line each. `label` prefixes each line ("A: ").
void WriteDiagnosticsTop(const Trace& trace, const std::string& label, std::ostream& out);

// One line when `trace` lost data while loading, for `diff`: "WARNING: A
// (<path>) is partial: <banner>"; nothing otherwise.
void WriteDataLossLine(const Trace& trace, const std::string& side, const std::string& path, std::ostream& out);

// A JSON object member list without braces, to splice into an object:
// "partial":bool,"data_loss":"<banner>"|null,"diagnostics":[{"severity",
// "code","count","first_offset" (null when unknown),"message"},...].
std::string DiagnosticsJsonMembers(const Trace& trace);

}  // namespace stepline::app
