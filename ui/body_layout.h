// BodyLayout: how the window's body is shared between the overview column,
// the timeline and the tabbed tables, as a pure function of the space and
// the user's splitter sizes, so small windows stay usable: the overview takes
// at most a third of the width and below 1280 logical px of window width
// collapses to a one-line summary strip; the timeline keeps at least half the
// height. Nothing the wide layout shows is lost in the narrow one: the
// selection's details, which sit under the overview column, move beside the
// tabbed tables (a click on a kernel once selected it and showed nothing).
#pragma once

#include <string>

#include "ui/analysis_data.h"
#include "ui/view_state.h"

namespace stepline::ui {

// Logical px (window px over the UI scale) below which the overview is a
// strip: at 2x display scaling a 2048 px window holds as much as a 1024 px
// one at 1x, and is narrow too.
inline constexpr float kOverviewCollapseWidth = 1280.f;

// True when the window is too narrow for the overview column.
inline bool NarrowWindow(float window_w, float scale) { return window_w / scale < kOverviewCollapseWidth; }

struct BodyLayout {
  bool overview_column = false;  // the full overview column on the left
  bool summary_strip = false;    // instead, one summary line across the top
  float overview_w = 0;          // px, when overview_column
  float bottom_h = 0;            // px of the tabbed tables under the timeline
  float timeline_h = 0;          // px of the timeline area
  // The selection's details beside the tabbed tables, when the overview
  // column (their usual place) is not shown.
  bool details_beside_tables = false;
  float details_w = 0;  // px, when details_beside_tables
};

// `window_w`: the whole window's width; `avail_w` x `avail_h`: the body's
// space; `splitter`: px of each splitter; `scale`: font scale (the panel
// sizes in `panels` are unscaled); `layout_scale`: window px per logical px
// for the cutoff (LayoutScale(); < 0: `scale`).
BodyLayout ComputeBodyLayout(const PanelLayout& panels, float window_w, float avail_w, float avail_h, float splitter,
                             float scale, float layout_scale = -1.f);

// The overview's cards on one line: "4 steps | step 1.61 s ± 12 ms | GPU
// busy 20.5% | top idle cause Input (4.9 s)".
std::string OverviewSummaryLine(const AnalysisData& a);

}  // namespace stepline::ui
