// Frame benchmark for `stepline bench`: the CPU time (of the building thread)
// to build one viewer frame (ImGui frame + every panel + draw lists; no GPU)
// and, when a GL context can be had (a display, or xvfb-run), the total wall
// time of a frame including rendering and glFinish(). Measured at full
// zoom-out and at 10%, 1% and 0.1% of the trace's span, centred, at a fixed
// window size.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ui/timeline/timeline_data.h"

namespace stepline::app {

struct FrameTimes {
  double fit_all = 0, zoom_10pct = 0, zoom_1pct = 0, zoom_0_1pct = 0;  // median ms per frame (see MeasureFrames)
};

struct FrameBenchResult {
  FrameTimes build_ms;
  std::optional<FrameTimes> total_ms;  // absent without a GL context
  std::string gl_note;                 // why total_ms is absent
};

FrameBenchResult MeasureFrames(std::shared_ptr<const ui::TimelineData> data, int width = 1920, int height = 1080,
                               int frames_per_level = 15);

}  // namespace stepline::app
