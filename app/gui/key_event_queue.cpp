// KeyEventQueue: one state change per key and button per frame; see key_event_queue.h.
#include "app/gui/key_event_queue.h"

#include <imgui.h>
#include <imgui_internal.h>  // ActiveId and InputTextState: does a text field have the keyboard now

#include <cmath>
#include <vector>

namespace stepline::app {
namespace {

// GLFW's codes for the modifier keys (app/ is the only layer that knows GLFW;
// the header stays free of it so tests can include it).
constexpr int kLeftShift = 340, kLeftControl = 341, kLeftAlt = 342, kLeftSuper = 343;
constexpr int kRightShift = 344, kRightControl = 345, kRightAlt = 346, kRightSuper = 347;
// Frames the keys may wait for a text field before they go on regardless
// (a field that never takes the keyboard must not freeze it).
constexpr int kMaxHeldFrames = 4;

bool IsModifier(int key) { return key >= kLeftShift && key <= kRightSuper; }

// A text field is active right now (what io.WantTextInput will say after
// this frame; the flag itself can lag a frame behind).
bool TextFieldActive() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  return g.ActiveId != 0 && g.ActiveId == g.InputTextState.ID;
}

}  // namespace

void KeyEventQueue::ApplyToImGui(bool hold) {
  ImGuiIO& io = ImGui::GetIO();
  for (int& c : frame_clicks_) c = 0;
  // The buttons as the events say, whatever the backend read from the live
  // state (a press still queued must not be seen early, nor a release late).
  // (Until the first button event the io's buttons are left as they are.)
  if (buttons_seen_) {
    for (int b = 0; b < kButtons; ++b) io.MouseDown[b] = button_down_[b];
  }
  // A field that a key made let go of the keyboard in the last frame (Esc,
  // Enter; its dialog closed) asked for the keyboard before it read that
  // key, and NewFrame() would copy the stale request into io.WantTextInput:
  // the view would skip its shortcuts, and this queue would hold the keys
  // after the closing one, for frames. The request is dropped and those keys
  // go to the view in the next frame. (A click that takes the keyboard from
  // a field keeps the wait: the field may take it back, as the Open dialog's
  // path field does, before the second click of a double-click.)
  ImGuiContext& g = *ImGui::GetCurrentContext();
  const bool let_go_by_key = key_pressed_last_frame_ && g.WantTextInputNextFrame > 0 && !TextFieldActive();
  if (let_go_by_key) g.WantTextInputNextFrame = -1;
  key_pressed_last_frame_ = false;
  const bool will_type = !let_go_by_key && io.WantTextInput;
  // The keyboard is moving between the view and a text field: what the frame
  // will read and where keys go (the active widget) must agree before a key
  // is applied, or a letter meant for the field zooms the view ("/" then "w"
  // in one frame).
  const bool moving = hold || will_type != TextFieldActive();
  if (moving && !events_.empty() && held_frames_ < kMaxHeldFrames) {
    ++held_frames_;
    // Releases at the head still go: a key kept down through the wait
    // would turn into ImGui's key repeat (a second Enter).
    while (!events_.empty() && events_.front().kind == Kind::kKey && !events_.front().down) {
      const int key = events_.front().code;
      if (key >= 0 && key < static_cast<int>(sizeof io.KeysDown / sizeof io.KeysDown[0])) io.KeysDown[key] = false;
      events_.pop_front();
    }
    return;
  }
  held_frames_ = 0;
  constexpr int kKeys = static_cast<int>(sizeof io.KeysDown / sizeof io.KeysDown[0]);
  std::vector<bool> changed(kKeys, false);
  bool button_changed[kButtons] = {};
  bool pressed_key = false;  // a key other than a modifier went down this frame
  bool typed = false;        // characters went in this frame
  const bool typing = will_type;  // as of the last frame, but for a field a key let go of
  while (!events_.empty()) {
    const Event e = events_.front();
    if (e.kind == Kind::kChar) {
      io.AddInputCharacter(static_cast<unsigned int>(e.code));
      typed = true;
      events_.pop_front();
      continue;
    }
    if (e.kind == Kind::kButton) {
      if (e.code < 0 || e.code >= kButtons) {
        events_.pop_front();
        continue;
      }
      if (button_changed[e.code] && io.MouseDown[e.code] != e.down) break;  // a second change waits
      buttons_seen_ = true;
      button_changed[e.code] = true;
      io.MouseDown[e.code] = button_down_[e.code] = e.down;
      io.MousePos = ImVec2(e.x, e.y);  // where it was pressed, not where the pointer is now
      if (e.down) {
        const int b = e.code;
        const bool near = std::fabs(e.x - last_press_x_[b]) <= kDoubleClickPixels &&
                          std::fabs(e.y - last_press_y_[b]) <= kDoubleClickPixels;
        click_count_[b] = near && e.earliest_s - last_press_s_[b] <= kDoubleClickSeconds ? click_count_[b] + 1 : 1;
        last_press_s_[b] = e.time_s;
        last_press_x_[b] = e.x;
        last_press_y_[b] = e.y;
        frame_clicks_[b] = click_count_[b];
      }
      events_.pop_front();
      continue;
    }
    if (e.code < 0 || e.code >= kKeys) {
      events_.pop_front();
      continue;
    }
    const bool chord = io.KeysDown[kLeftControl] || io.KeysDown[kRightControl] || io.KeysDown[kLeftSuper] ||
                       io.KeysDown[kRightSuper];
    // A second change of one key in a frame would cancel the first: the
    // press would never be seen. It waits for the next frame.
    // While a text field has the keyboard, a printable key (GLFW codes
    // below 256) matters only through its character: its press and release
    // may share a frame, so typing keeps pace on slow frames. Not with Ctrl
    // held: Ctrl+A has no character, only its key.
    const bool text_key = typing && e.code < 256 && !chord;
    if (changed[e.code] && io.KeysDown[e.code] != e.down && !text_key) break;
    // A chord whose modifier is let go first (Ctrl down, O down, Ctrl up:
    // quick fingers, xdotool) must still be seen whole: the modifier's
    // release waits for the frame after the key's press.
    if (IsModifier(e.code) && !e.down && pressed_key) break;
    // Outside a text field one key press per frame: a key may move the
    // keyboard elsewhere (`/`, Ctrl+F, Ctrl+O), and the keys after it are
    // for wherever it went.
    if (!IsModifier(e.code) && e.down && !text_key && pressed_key) break;
    // In a text field, a key that acts on the text (Esc, Enter, Ctrl+A)
    // comes the frame after the characters typed before it: Esc would let
    // go of the field before they were in it.
    if (!IsModifier(e.code) && e.down && !text_key && typing && typed) break;
    if (!IsModifier(e.code) && e.down && !text_key) pressed_key = true;
    changed[e.code] = true;
    io.KeysDown[e.code] = e.down;
    events_.pop_front();
  }
  io.KeyCtrl = io.KeysDown[kLeftControl] || io.KeysDown[kRightControl];
  io.KeyShift = io.KeysDown[kLeftShift] || io.KeysDown[kRightShift];
  io.KeyAlt = io.KeysDown[kLeftAlt] || io.KeysDown[kRightAlt];
  io.KeySuper = io.KeysDown[kLeftSuper] || io.KeysDown[kRightSuper];
  key_pressed_last_frame_ = pressed_key;
}

void KeyEventQueue::ApplyClickCounts() const {
  ImGuiIO& io = ImGui::GetIO();
  for (int b = 0; b < kButtons; ++b) {
    if (frame_clicks_[b] == 0 || !io.MouseClicked[b]) continue;
    io.MouseClickedCount[b] = static_cast<ImU16>(frame_clicks_[b]);
    io.MouseClickedLastCount[b] = static_cast<ImU16>(frame_clicks_[b]);
    io.MouseDoubleClicked[b] = frame_clicks_[b] == 2;
  }
}

}  // namespace stepline::app
