// ZoomHistory: the views of the timeline to go back and forward to, as a
// browser's pages (Alt+Left / Backspace / mouse back; Alt+Right / mouse
// forward). Plain data, no ImGui.
//
// What makes an entry: the view a change starts from, recorded just before
// the change.
// - A jump (fit to a selection, a search match, a gap, the whole trace; F,
//   0, a table row) is one entry each.
// - A drag (pan or the overview strip) is one entry, at its start.
// - Zoom steps (wheel notches, W/S) and key pans (A/D) that follow each other
//   within kCoalesceSeconds are one entry: W W W then Alt+Left is back to the
//   view before the first W.
// A new entry drops the forward list; a change from the view already on top
// adds nothing.
#pragma once

#include <cstddef>
#include <vector>

#include "model/time.h"

namespace stepline::ui {

enum class ViewChange { kZoomStep, kKeyPan, kDrag, kJump };

class ZoomHistory {
 public:
  static constexpr size_t kMaxEntries = 100;
  static constexpr double kCoalesceSeconds = 1.0;

  // The view is about to change from `from` by `change`, at `now_s`.
  void BeforeChange(const TimeRange& from, ViewChange change, double now_s);
  // The view to show instead of `current`; false when there is none.
  bool Back(const TimeRange& current, TimeRange* to);
  bool Forward(const TimeRange& current, TimeRange* to);
  size_t back_size() const { return back_.size(); }
  size_t forward_size() const { return forward_.size(); }
  void Clear();

 private:
  std::vector<TimeRange> back_, forward_;
  ViewChange last_change_ = ViewChange::kJump;
  double last_step_s_ = -1e9;  // the last coalescing step (zoom or key pan)
};

}  // namespace stepline::ui
