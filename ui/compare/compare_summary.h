// The compare summary table: steps, mean step time, GPU busy and the per-step
// means of every breakdown category and idle cause, as A, B, delta and
// delta %; improvements green, regressions red. Formatting is pure and tested.
#pragma once

#include <string>

#include "model/analysis/compare.h"
#include "model/analysis/headline.h"

namespace stepline::ui {

// A or B in the row's unit: "12", "1.25 ms", "63.0%".
std::string FormatSummaryValue(analysis::SummaryUnit unit, double value);
// B - A with a sign: "+250 µs", "-3", "+1.5 pp" (percentage points).
std::string FormatSummaryDelta(const analysis::SummaryRow& row);
// "+12.3%", "-4.0%", "0%", or "new" when A is 0 and B is not.
std::string FormatDeltaPercent(const analysis::SummaryRow& row);
// Improvement / regression by the row's sense, kNone when the change is under
// theme::kCompareNeutralPercent of A (timing noise) or the row is neutral.
analysis::Change SummaryTone(const analysis::SummaryRow& row);
// A category or cause row with no time in either run. Still listed (dimmed),
// as `stepline diff` lists it, so the window and the CLI show the same rows.
bool IsEmptySummaryRow(const analysis::SummaryRow& row);
// The display label ("Compute", "Idle: input", "Input", ...) of row `index`
// of Comparison::summary (rows come in enum order within each group).
std::string SummaryLabel(const analysis::Comparison& c, size_t index);

// Width in px of the label column's longest label, swatch included, at the
// current font: the column never gets less.
float SummaryLabelWidth(const analysis::Comparison& c);
// Width in px the whole table needs so nothing in it clips (labels and
// value columns), at the current font.
float SummaryTableWidth(const analysis::Comparison& c);
// Draws the table at the cursor (full width, its natural height).
// `heads`: A's and B's headline figures (model/analysis/headline.h): the
// run rows' A and B cells (steps, mean step, device busy) are drawn from
// them, the numbers `report --json` gives each trace; null: from the rows.
void DrawCompareSummary(const analysis::Comparison& c, const analysis::Headline* heads = nullptr);

}  // namespace stepline::ui
