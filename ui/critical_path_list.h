// The overview's "Critical path" section: what shortening the steps would
// take (CriticalPathSentence), the time by kind summed over the steps, and a
// list with one row per step (its path by kind and the name holding most of
// it); a click frames the step on the timeline and turns the overlay on.
// The figures are the Report's, as `report --json` writes them.
#pragma once

#include <string>
#include <vector>

#include "model/analysis/report.h"
#include "ui/view_state.h"

namespace stepline::ui {

// One list row's cells: step name, path length, then per kind the share of
// the path ("42%", "" for none), then the top name. Pure, for the test.
std::vector<std::string> CriticalPathRowCells(const analysis::ReportStep& step);

void DrawCriticalPathSection(ViewState& state);
// The height DrawCriticalPathSection takes (0 when it draws nothing), so a
// chart that fills the panel leaves room for it.
float CriticalPathSectionHeight(const ViewState& state);

}  // namespace stepline::ui
