// CompareSelectionKeys; see compare_selection_keys.h.
#include "ui/compare/compare_selection_keys.h"

#include <imgui.h>

#include "ui/input/test_events.h"
#include "ui/selection_keys.h"

namespace stepline::ui {
namespace {

bool CompareSideHasSelection(const ViewState& s) { return !s.selected.is_none() || s.range.has_value(); }

}  // namespace

std::string CompareSelectionKeys::Handle(ViewState states[2]) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool copy = io.KeyCtrl && ImGui::IsKeyPressed('C', false);
  const bool mark = !io.KeyCtrl && !io.KeyAlt && !io.KeySuper && ImGui::IsKeyPressed('M', false);
  if (!copy && !mark) return {};
  int side = side_;
  if (mark && io.KeyShift) {
    // A flag goes where the mouse is; off both timelines, to the keys' side.
    for (int s = 0; s < 2; ++s) {
      if (states[s].notes.cursor_ns) side = s;
    }
  } else if (!CompareSideHasSelection(states[side]) && CompareSideHasSelection(states[1 - side])) {
    side = 1 - side;
  }
  if (states[side].trace() == nullptr) return {};
  const std::string notice = HandleSelectionKeys(states[side]);
  if (notice.empty()) return {};
  const char* name = side == 0 ? "A" : "B";
  TestEvent("compare.keys", std::string("side=") + name + (copy ? " key=copy" : io.KeyShift ? " key=flag" : " key=mark"));
  return std::string(name) + ": " + notice;
}

void CompareSelectionKeys::Track(const ViewState states[2]) {
  for (int s = 0; s < 2; ++s) {
    const bool changed = states[s].selected != selected_[s] || states[s].range != range_[s];
    if (changed && CompareSideHasSelection(states[s])) {
      side_ = s;
      TestEvent("compare.select", s == 0 ? "side=A" : "side=B");
    }
    selected_[s] = states[s].selected;
    range_[s] = states[s].range;
  }
}

}  // namespace stepline::ui
