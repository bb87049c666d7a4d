// KeyEventQueue: one state change per key per frame; see key_event_queue.h.
#include "app/gui/key_event_queue.h"

#include <imgui.h>

#include <vector>

namespace stepline::app {
namespace {

// GLFW's codes for the modifier keys (app/ is the only layer that knows GLFW;
// the header stays free of it so tests can include it).
constexpr int kLeftShift = 340, kLeftControl = 341, kLeftAlt = 342, kLeftSuper = 343;
constexpr int kRightShift = 344, kRightControl = 345, kRightAlt = 346, kRightSuper = 347;

bool IsModifier(int key) { return key >= kLeftShift && key <= kRightSuper; }

}  // namespace

void KeyEventQueue::ApplyToImGui() {
  ImGuiIO& io = ImGui::GetIO();
  constexpr int kKeys = static_cast<int>(sizeof io.KeysDown / sizeof io.KeysDown[0]);
  std::vector<bool> changed(kKeys, false);
  bool pressed_key = false;  // a key other than a modifier went down this frame
  const bool typing = io.WantTextInput;  // as of the last frame
  while (!events_.empty()) {
    const Event e = events_.front();
    if (e.kind == Kind::kChar) {
      io.AddInputCharacter(static_cast<unsigned int>(e.code));
      events_.pop_front();
      continue;
    }
    if (e.code < 0 || e.code >= kKeys) {
      events_.pop_front();
      continue;
    }
    // A second change of one key in a frame would cancel the first: the
    // press would never be seen. It waits for the next frame.
    // While a text field has the keyboard, a printable key (GLFW codes
    // below 256) matters only through its character: its press and release
    // may share a frame, so typing keeps pace on slow frames.
    const bool text_key = typing && e.code < 256;
    if (changed[e.code] && io.KeysDown[e.code] != e.down && !text_key) break;
    // A chord whose modifier is let go first (Ctrl down, O down, Ctrl up:
    // quick fingers, xdotool) must still be seen whole: the modifier's
    // release waits for the frame after the key's press.
    if (IsModifier(e.code) && !e.down && pressed_key) break;
    if (!IsModifier(e.code) && e.down && !text_key) pressed_key = true;
    changed[e.code] = true;
    io.KeysDown[e.code] = e.down;
    events_.pop_front();
  }
  io.KeyCtrl = io.KeysDown[kLeftControl] || io.KeysDown[kRightControl];
  io.KeyShift = io.KeysDown[kLeftShift] || io.KeysDown[kRightShift];
  io.KeyAlt = io.KeysDown[kLeftAlt] || io.KeysDown[kRightAlt];
  io.KeySuper = io.KeysDown[kLeftSuper] || io.KeysDown[kRightSuper];
}

}  // namespace stepline::app
