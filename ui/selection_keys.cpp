// HandleSelectionKeys; see selection_keys.h.
#include "ui/selection_keys.h"

#include <imgui.h>

#include "ui/clipboard.h"
#include "ui/input/test_events.h"
#include "ui/notes/note_actions.h"

namespace stepline::ui {

std::string HandleSelectionKeys(ViewState& state) {
  const Trace* trace = state.trace();
  if (trace == nullptr) return {};
  const ImGuiIO& io = ImGui::GetIO();
  if (io.KeyCtrl && ImGui::IsKeyPressed('C', false)) {
    if (state.selected.is_none()) return {};
    const std::string name(trace->str(trace->slices().name()[state.selected.index()]));
    CopyText(name);
    TestEvent("selection.copy", "name=" + name);
    return "Copied the slice name";
  }
  if (io.KeyCtrl || io.KeyAlt || io.KeySuper || !ImGui::IsKeyPressed('M', false)) return {};
  const std::string count = std::to_string(state.notes.items.size() + 1);
  if (io.KeyShift) {
    DropFlag(state, FlagTime(state));
    TestEvent("note.add", "kind=flag count=" + count);
    return "Flag " + count + " added (Notes tab)";
  }
  if (!MarkSelection(state)) {
    TestEvent("note.none");
    return "Select a slice or a range first, then press M";
  }
  TestEvent("note.add", "kind=span count=" + count);
  return "Note " + count + " added (Notes tab)";
}

}  // namespace stepline::ui
