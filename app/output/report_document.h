// The whole `stepline report --json` document of one trace: the report, the
// trace's diagnostics and, for a rank of a distributed run, its
// rank_summary. One function, so `report --json` and the MCP server's tools
// print the same keys and values.
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"
#include "model/trace.h"

namespace stepline::app {

void WriteReportJsonDocument(const Trace& trace, const analysis::TraceAnalysis& analysis,
                             const analysis::Report& report, const std::string& path, std::ostream& out);

}  // namespace stepline::app
