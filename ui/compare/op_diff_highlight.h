// Highlighting an ops-diff row in a run's timeline: the row carries the
// run's own op name ids (several when the comparison normalized them, e.g.
// aten::add_3 and aten::add_7; OpDiffRow::a_names / b_names), and every slice
// with one of those names on the row's side (host or GPU) is highlighted.
#pragma once

#include <span>

#include "model/ids.h"
#include "ui/view_state.h"

namespace stepline::ui {

// Highlights every slice named one of `names` on the host (on_device false)
// or GPU side, like ViewState::HighlightOp for several names; empty clears.
void HighlightOpNames(ViewState& state, std::span<const StringId> names, bool on_device);

// The range that frames one occurrence [start, start + dur) of a selected op:
// about twenty of its lengths wide, the occurrence a tenth of the way in, and
// inside the trace's `span` (shifted, then cut, to fit): framing an op at the
// trace's start once showed half a view of nothing before the trace.
TimeRange OpRevealRange(TimeNs start, DurNs dur, TimeRange span);

}  // namespace stepline::ui
