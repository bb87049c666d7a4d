// The "Steps" strip of the timeline: the analysis' steps (primary device) as
// one row above every track, so a step's extent is visible at any scroll.
#pragma once

#include "ui/view_state.h"

struct ImDrawList;

namespace stepline::ui {

// Draws the steps visible in the viewport into [x0, x1) x [y0, y1) (the
// content column; the label goes left of x0, width label_w). Returns the
// step under `mouse_x` when `mouse_in_strip`, else -1.
int DrawStepsStrip(const ViewState& state, ImDrawList* dl, float x0, float y0, float x1, float y1, float label_w,
                   bool mouse_in_strip, float mouse_x);
// Tooltip body for step `index`: name, duration, its largest categories.
void StepTooltip(const ViewState& state, int index);

}  // namespace stepline::ui
