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

}  // namespace

void KeyEventQueue::ApplyToImGui() {
  ImGuiIO& io = ImGui::GetIO();
  constexpr int kKeys = static_cast<int>(sizeof io.KeysDown / sizeof io.KeysDown[0]);
  std::vector<bool> changed(kKeys, false);
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
    if (changed[e.code] && io.KeysDown[e.code] != e.down) break;
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
