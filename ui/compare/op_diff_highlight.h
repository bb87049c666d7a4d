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

}  // namespace stepline::ui
