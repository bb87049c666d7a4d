// KeyEventQueue: key presses and typed characters, in the order the window
// system reported them, handed to ImGui a frame at a time so that no press is
// lost. ImGui 1.86 samples io.KeysDown once per frame: a key pressed and
// released between two frames (a quick tap on a slow frame: llvmpipe, a remote
// desktop) would never be seen down. Here each key changes state at most once
// per frame (printable keys excepted while a text field has the keyboard:
// they count through their characters); the rest waits for the next frame.
#pragma once

#include <cstdint>
#include <deque>

namespace stepline::app {

class KeyEventQueue {
 public:
  // Key codes are the backend's (GLFW's), as ImGui 1.86 indexes io.KeysDown.
  void PushKey(int key, bool down) { events_.push_back({Kind::kKey, key, down}); }
  void PushChar(unsigned int c) { events_.push_back({Kind::kChar, static_cast<int>(c), false}); }
  // Applies events to the current ImGui context's io (KeysDown, the modifier
  // flags, typed characters) until one would change a key a second time this
  // frame. Call once per frame, before ImGui::NewFrame().
  void ApplyToImGui();
  // Events left for later frames: the window should not sleep while any are.
  bool pending() const { return !events_.empty(); }

 private:
  enum class Kind : uint8_t { kKey, kChar };
  struct Event {
    Kind kind;
    int code;   // key code, or the character
    bool down;  // keys only
  };
  std::deque<Event> events_;
};

}  // namespace stepline::app
