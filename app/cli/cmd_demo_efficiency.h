// `stepline demo efficiency`: the planted efficiency trace (demo/demo_efficiency.h).
#pragma once

#include <iosfwd>

#include "app/cli/cli_args.h"

namespace stepline::app {

// Writes the trace to --out FILE and its planted figures to `out`.
int RunEfficiencyDemo(const ParsedArgs& a, std::ostream& out, std::ostream& err);

}  // namespace stepline::app
