// The analysis tables as TextTables for export, one builder per panel: the one
// table layout, shared by the window's Save as CSV and `stepline report --csv`
// (same columns, same order; docs/cli.md). Rows come in the order the panel shows
// them (its filter and sort), every time in exact integer nanoseconds,
// unknown values as empty cells.
#pragma once

#include <cstdint>
#include <vector>

#include "model/analysis/range_aggregation.h"
#include "model/analysis/report.h"
#include "ui/analysis_data.h"
#include "ui/table_export.h"

namespace stepline::ui {

// `rows` index report.ops.
TextTable OpsTable(const analysis::Report& report, const std::vector<uint32_t>& rows);
// `rows` index report.kernels.
TextTable KernelsTable(const analysis::Report& report, const std::vector<uint32_t>& rows);
// `rows` index a.gaps. start_ns is on the trace clock.
TextTable GapsTable(const Trace& trace, const AnalysisData& a, const std::vector<uint32_t>& rows);
// Every step with its breakdown by category (the step chart's data).
// figure,label,value: each headline figure as the overview prints it (headline.csv).
TextTable HeadlineTable(const analysis::Report& report);
TextTable StepsTable(const analysis::Report& report);
// `order` indexes `rows`.
TextTable RangeTable(const Trace& trace, const std::vector<analysis::RangeAggregateRow>& rows,
                     const std::vector<size_t>& order);

}  // namespace stepline::ui
