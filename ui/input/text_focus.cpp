// Text-field focus hand-over; see text_focus.h.
#include "ui/input/text_focus.h"

#include <imgui.h>
#include <imgui_internal.h>  // ActiveId / InputTextState: has a text field taken the keyboard

namespace stepline::ui {
namespace {

// A request is resolved within two frames (ImGui moves the focus on the
// frame after the request); one spare.
constexpr int kRequestFrames = 3;
int g_text_focus_frames = 0;

}  // namespace

void RequestTextFocus() { g_text_focus_frames = kRequestFrames; }

bool TextFocusPending() {
  if (g_text_focus_frames <= 0) return false;
  const ImGuiContext* g = ImGui::GetCurrentContext();
  if (g != nullptr && g->ActiveId != 0 && g->ActiveId == g->InputTextState.ID && g->IO.WantTextInput) {
    g_text_focus_frames = 0;  // the field has it, and the frame knows
    return false;
  }
  --g_text_focus_frames;
  return true;
}

}  // namespace stepline::ui
