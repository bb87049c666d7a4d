// The timeline's Memory row of one pool: allocated as an area,
// reserved as a line, the peak marked, out-of-memory events as red ticks, one
// column per pixel holding its highest level. Hovering shows the levels at
// the mouse's time.
#pragma once

#include <imgui.h>

#include "ui/memory/memory_series.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

// Draws into [x0, x0 + width) x [y0, y0 + height); shows the hover tooltip
// when `mouse_over` and the mouse is inside.
void DrawMemoryRow(const MemorySeries& series, const Viewport& viewport, ImDrawList* dl, float x0, float y0,
                   float width, float height, bool mouse_over);

}  // namespace stepline::ui
