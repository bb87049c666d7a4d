// Note actions; see note_actions.h.
#include "ui/notes/note_actions.h"

#include <algorithm>
#include <iterator>

#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {
namespace {

void AddNote(ViewState& state, Note note) {
  note.color = NextNoteColor(state.notes);
  state.notes.items.push_back(std::move(note));
  ++state.notes.revision;
}

TimeNs TraceOrigin(const ViewState& state) { return state.trace() ? state.trace()->span().start_ns : 0; }

}  // namespace

uint32_t NextNoteColor(const NoteSet& notes) {
  return theme::kNoteColors[notes.items.size() % std::size(theme::kNoteColors)];
}

bool MarkSelection(ViewState& state) {
  const Trace* trace = state.trace();
  if (state.range && state.range->duration_ns() > 0) {
    AddNote(state, Note{state.range->start_ns, state.range->end_ns, false,
                        "range of " + FormatDuration(state.range->duration_ns()), 0});
    return true;
  }
  if (trace == nullptr || state.selected.is_none()) return false;
  const size_t i = state.selected.index();
  const TimeNs start = trace->slices().start_ns()[i];
  AddNote(state, Note{start, start + trace->slices().dur_ns()[i], false,
                      std::string(trace->str(trace->slices().name()[i])), 0});
  return true;
}

void DropFlag(ViewState& state, TimeNs time_ns) {
  AddNote(state, Note{time_ns, time_ns, true, "flag at " + FormatDuration(time_ns - TraceOrigin(state)), 0});
}

TimeNs FlagTime(const ViewState& state) {
  if (state.notes.cursor_ns) return *state.notes.cursor_ns;
  const TimeRange v = state.viewport.visible;
  return v.start_ns + v.duration_ns() / 2;
}

void JumpToNote(ViewState& state, size_t index) {
  if (index >= state.notes.items.size()) return;
  const Note& n = state.notes.items[index];
  if (!n.is_flag && n.end_ns > n.start_ns) {
    state.FitRange(TimeRange{n.start_ns, n.end_ns}, 0.05);
    return;
  }
  const DurNs width = std::max<DurNs>(state.viewport.visible.duration_ns(), 1000);
  state.requests.fit = TimeRange{n.start_ns - width / 2, n.start_ns + width - width / 2};
}

void DeleteNote(ViewState& state, size_t index) {
  if (index >= state.notes.items.size()) return;
  state.notes.items.erase(state.notes.items.begin() + static_cast<std::ptrdiff_t>(index));
  ++state.notes.revision;
}

}  // namespace stepline::ui
