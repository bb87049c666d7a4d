// ViewState: everything the panels share (selection, visible range, layout
// choices, search, options). Panels talk through it, never through pointers
// to each other; they keep only ids and view state, never trace data.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "ui/timeline/slice_colors.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/track_layout.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

struct ViewState {
  std::shared_ptr<const TimelineData> data;  // null until a trace is loaded

  Viewport viewport;                 // visible time window; width set by the timeline each frame
  float scroll_y = 0;                // track area scroll, pixels
  SliceId selected;                  // clicked slice; None = nothing selected
  SliceId hovered;                   // under the mouse this frame
  std::optional<TimeRange> range;    // ruler / shift-drag selection
  LayoutChoices layout;
  ColorMode color_mode = ColorMode::kByName;
  bool show_all_flows = false;       // every flow in view, not just the selection's
  bool show_help = false;

  // Search over the whole trace (not just the view).
  std::string search_text;
  bool search_regex = false;
  std::vector<uint32_t> search_matches;  // matching slice rows, ascending
  std::string search_error;
  size_t search_cursor = 0;

  // Requests from panels or keys, applied by the timeline next frame.
  std::optional<TimeRange> request_fit;
  bool request_scroll_to_selection = false;

  const Trace* trace() const { return data ? data->trace.get() : nullptr; }
  // Shows the whole trace.
  void FitAll();
  // Selects `slice`, and asks the timeline to bring it into view.
  void SelectAndReveal(SliceId slice);
};

}  // namespace stepline::ui
