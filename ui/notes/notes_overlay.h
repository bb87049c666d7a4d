// Notes on the timeline: a span note is a translucent band over the rows
// with its edges and a label at the top; a flag is a vertical line with a
// small flag and its label. Drawn in the window and in every picture of it.
#pragma once

#include <imgui.h>

#include <string>

#include "ui/view_state.h"

namespace stepline::ui {

// `x0`..`x1` is the time axis (the tracks' x extent), `label_y` where labels
// go (the ruler's top), `y1` the bottom of the rows. Also records the time
// under the mouse in state.notes.cursor_ns (unset when the mouse is elsewhere).
void DrawNotesOverlay(ViewState& state, ImDrawList* dl, float x0, float label_y, float x1, float y1);

// The caption's part for the notes that overlap `view`: "  |  notes: a; b"
// (at most three texts, then "+N more"); "" when none is in view.
std::string NotesCaptionPart(const NoteSet& notes, TimeRange view);

}  // namespace stepline::ui
