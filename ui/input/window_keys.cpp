// Window-wide keys; see window_keys.h.
#include "ui/input/window_keys.h"

#include <imgui.h>
#include <imgui_internal.h>  // OpenPopupStack / ClosePopupToLevel: Esc closes menus and popups

#include <algorithm>
#include <cstdio>

#include "ui/input/key_codes.h"
#include "ui/input/test_events.h"
#include "ui/view_state.h"

namespace stepline::ui {
namespace {

constexpr float kMinTextScale = 0.75f, kMaxTextScale = 2.5f, kTextScaleStep = 1.1f;

bool Pressed(int key) { return ImGui::IsKeyPressed(key, false); }

void LogTextScale(const char* name, float scale) {
  char detail[32];
  std::snprintf(detail, sizeof detail, "scale=%.2f", scale);
  TestEvent(name, detail);
}

}  // namespace

void HandleTextSizeAndQuitKeys(bool* quit) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl) return;
  if (Pressed(keycode::kEqual) || Pressed(keycode::kKpAdd)) {
    io.FontGlobalScale = std::min(kMaxTextScale, io.FontGlobalScale * kTextScaleStep);
    LogTextScale("text.larger", io.FontGlobalScale);
  }
  if (Pressed(keycode::kMinus) || Pressed(keycode::kKpSubtract)) {
    io.FontGlobalScale = std::max(kMinTextScale, io.FontGlobalScale / kTextScaleStep);
    LogTextScale("text.smaller", io.FontGlobalScale);
  }
  if (Pressed(keycode::k0) || Pressed(keycode::kKp0)) {
    io.FontGlobalScale = 1.f;
    LogTextScale("text.reset", io.FontGlobalScale);
  }
  if (Pressed(keycode::kQ) && quit != nullptr) {
    *quit = true;
    TestEvent("app.quit");
  }
}

bool CloseTopPopupOnEsc(bool* show_help) {
  if (!Pressed(keycode::kEscape)) return false;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  // The lowest level above the last modal: the popups Esc closes.
  int level = g.OpenPopupStack.Size;
  while (level > 0) {
    const ImGuiWindow* w = g.OpenPopupStack[level - 1].Window;
    if (w != nullptr && (w->Flags & ImGuiWindowFlags_Modal)) break;
    --level;
  }
  if (level < g.OpenPopupStack.Size) {
    const ImGuiWindow* w = g.OpenPopupStack[level].Window;
    const bool menu = w != nullptr && (w->Flags & ImGuiWindowFlags_ChildMenu);
    ImGui::ClosePopupToLevel(level, true);
    TestEvent("popup.close", menu ? "kind=menu" : "kind=popup");
    return true;
  }
  if (level > 0) return false;  // a modal dialog is on top: its Esc
  if (show_help != nullptr && *show_help && !ImGui::GetIO().WantTextInput) {
    *show_help = false;
    TestEvent("popup.close", "kind=help");
    return true;
  }
  return false;
}

void HandleHistoryKeys(ViewState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || state.trace() == nullptr) return;
  const bool back = (io.KeyAlt && Pressed(keycode::kLeft)) || (!io.KeyCtrl && Pressed(keycode::kBackspace)) ||
                    ImGui::IsMouseClicked(keycode::kMouseBack);
  const bool forward = (io.KeyAlt && Pressed(keycode::kRight)) || ImGui::IsMouseClicked(keycode::kMouseForward);
  TimeRange to;
  if (back) {
    const bool moved = state.history.Back(state.viewport.visible, &to);
    if (moved) state.viewport.visible = to;
    TestEvent("history.back", moved ? "" : "empty=1");
  } else if (forward) {
    const bool moved = state.history.Forward(state.viewport.visible, &to);
    if (moved) state.viewport.visible = to;
    TestEvent("history.forward", moved ? "" : "empty=1");
  }
}

}  // namespace stepline::ui
