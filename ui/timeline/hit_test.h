// Hit-testing the timeline: which layout row is at a y, which draw item is
// at an x. Pure functions, tested without a window.
#pragma once

#include <span>

#include "ui/timeline/draw_list.h"
#include "ui/timeline/track_layout.h"

namespace stepline::ui {

// Index of the layout row containing content-space `y`, or -1 (gaps, past the end).
int RowAtY(const TrackLayout& layout, float y);
// Index of the item on `depth` covering `x`; items narrower than 2*slop_px
// are hit within slop_px of them. -1 if none. Later items win ties (drawn on top).
int ItemAtX(std::span<const SliceDrawItem> items, uint16_t depth, float x, float slop_px = 1.f);

}  // namespace stepline::ui
