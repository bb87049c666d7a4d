// `stepline report --format md`: the report as Markdown, for a pull request
// or a wiki page. Sections: headline figures, the step-time breakdown, the
// findings (model/analysis/findings.h: id, rule, threshold, value,
// evidence with slice ids and times, and the command that opens each one),
// the recommendations, top ops, top kernels, the longest gaps, memory.
// Pure formatting.
#pragma once

#include <iosfwd>
#include <span>

#include "app/output/report_output.h"
#include "model/analysis/findings.h"

namespace stepline::app {

// Times in the evidence and gap tables are ms from context.origin_ns (the
// trace's start), as in the text report.
void WriteReportMarkdown(const analysis::Report& report, std::span<const analysis::Finding> findings,
                         const ReportTextContext& context, std::ostream& out);

}  // namespace stepline::app
