// What the keys and the Notes tab do with notes: mark the selection, drop a
// flag, jump to a note, edit and delete. Each change bumps the revision.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ui/view_state.h"

namespace stepline::ui {

// The colour the next note gets: the theme's note colours in turn.
uint32_t NextNoteColor(const NoteSet& notes);
// M: a span note over the range selection when there is one, else over the
// selected slice (its name as the text). False when there is neither.
bool MarkSelection(ViewState& state);
// Shift+M: a flag at `time_ns` ("flag at 12.30 ms" from the trace start).
void DropFlag(ViewState& state, TimeNs time_ns);
// Shift+M's time: the mouse over the timeline, else the view's centre.
TimeNs FlagTime(const ViewState& state);
// Frames a span note (with a margin), centres a flag keeping the zoom.
void JumpToNote(ViewState& state, size_t index);
void DeleteNote(ViewState& state, size_t index);

}  // namespace stepline::ui
