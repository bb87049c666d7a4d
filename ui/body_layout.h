// BodyLayout: how the window's body is shared between the overview column,
// the timeline and the tabbed tables, as a pure function of the space and
// the user's splitter sizes, so small windows stay usable: the overview takes
// at most a third of the width and below 1280 px of window width collapses to
// a one-line summary strip; the timeline keeps at least half the height.
#pragma once

#include <string>

#include "ui/analysis_data.h"
#include "ui/view_state.h"

namespace stepline::ui {

inline constexpr float kOverviewCollapseWidth = 1280.f;  // window px below which the overview is a strip

struct BodyLayout {
  bool overview_column = false;  // the full overview column on the left
  bool summary_strip = false;    // instead, one summary line across the top
  float overview_w = 0;          // px, when overview_column
  float bottom_h = 0;            // px of the tabbed tables under the timeline
  float timeline_h = 0;          // px of the timeline area
};

// `window_w`: the whole window's width; `avail_w` x `avail_h`: the body's
// space; `splitter`: px of each splitter; `scale`: font scale (the panel
// sizes in `panels` are unscaled).
BodyLayout ComputeBodyLayout(const PanelLayout& panels, float window_w, float avail_w, float avail_h, float splitter,
                             float scale);

// The overview's cards on one line: "4 steps | step 1.61 s ± 12 ms | GPU
// busy 20.5% | top idle cause Input (4.9 s)".
std::string OverviewSummaryLine(const AnalysisData& a);

}  // namespace stepline::ui
