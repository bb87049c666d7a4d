// Keys that act on the selection, in one place: Ctrl+C copies the selected
// slice's name, M marks the selected slice (or the range selection) as a
// note, Shift+M drops a flag at the mouse's time on the timeline.
#pragma once

#include <string>

#include "ui/view_state.h"

namespace stepline::ui {

// Call once a frame when the view has the keyboard and no text field does.
// Returns a short notice for the toast ("" when nothing happened).
std::string HandleSelectionKeys(ViewState& state);

}  // namespace stepline::ui
