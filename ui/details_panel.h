// DetailsPanel: everything about the selected slice: name, category, track,
// start, duration, self time, every arg, and the slices linked to it by flows
// (launch <-> kernel) with a button to jump there.
#pragma once

#include "ui/view_state.h"

namespace stepline::ui {

// Self time: the slice's duration minus the time covered by its direct
// children on the same track (children may not overlap each other).
DurNs ComputeSelfTime(const Trace& trace, SliceId slice);

class DetailsPanel {
 public:
  void Draw(ViewState& state);
};

}  // namespace stepline::ui
