// FlowWindow: the flows (launch -> kernel arrows) that touch the visible
// window, for "show all arrows in view", without visiting every flow of the
// trace each frame. Flows are indexed once by their later end (hi); those in
// view have hi >= window start and lo <= window end, so they lie in
// [first hi >= start, first hi > end + longest flow) of that order. When more
// than `cap` qualify, an even stride over them is taken, so a zoomed-out view
// shows arrows across the whole window rather than only at its start.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

class FlowWindow {
 public:
  explicit FlowWindow(const Trace& trace);
  // Appends to `out` (cleared first) up to `cap` flow rows touching `visible`.
  void InView(TimeRange visible, size_t cap, std::vector<uint32_t>* out) const;

 private:
  std::vector<uint32_t> by_hi_;  // flow rows, by later endpoint start
  std::vector<TimeNs> hi_, lo_;  // per entry of by_hi_: later and earlier endpoint start
  DurNs max_span_ = 0;           // longest hi - lo
};

}  // namespace stepline::ui
