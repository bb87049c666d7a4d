// The analysis tables of the export (export/sqlite_export_analysis.cpp) as
// TableSources: step, step_breakdown, gap, op_stat, kernel_stat, from one
// analysis::ComputeReport with `stepline report`'s default options, so a
// query gives the report's numbers. The report is computed on the first
// query that names one of them, once, and its rows are kept (they are
// small: steps, gaps and op kinds, not slices).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/trace.h"
#include "query/table_source.h"

namespace stepline::query {

// One source per table, sharing the lazily computed report.
std::vector<std::pair<std::string, std::unique_ptr<TableSource>>> MakeAnalysisSources(const Trace& trace);

}  // namespace stepline::query
