// KeyEventQueue: key presses, typed characters and mouse buttons, in the
// order the window system reported them and with the time it reported each,
// handed to ImGui a frame at a time so that no press is lost. ImGui 1.86
// samples io.KeysDown and io.MouseDown once per frame: a key (or a button)
// pressed and released between two frames (a quick tap on a slow frame:
// llvmpipe, a remote desktop, a 2-core machine under load) would never be
// seen down. Here each key and button changes state at most once per frame
// (printable keys excepted while a text field has the keyboard: they count
// through their characters); the rest waits for the next frame.
//
// The rules that keep input from slipping on slow frames:
// - Outside a text field, one key press per frame: `/` (which moves the
//   keyboard to the search field) never shares a frame with the letters
//   typed after it.
// - While the keyboard is moving to or from a text field (ImGui's flag and
//   the active widget disagree, or the view asked a field for the keyboard:
//   `hold`), key events wait: the letters reach the field, not the view.
// - When a key makes a field let go of the keyboard (Esc, Enter, its
//   dialog closes), the keys queued after the closing one go to the view in
//   the next frame: the field's last request for the keyboard, made before
//   it read the closing key, is dropped.
// - Clicks are counted from the events' own times, not frame times: two
//   presses within kDoubleClickSeconds and kDoubleClickPixels are a
//   double-click even when they land in frames a second apart.
#pragma once

#include <cstdint>
#include <deque>

namespace stepline::app {

class KeyEventQueue {
 public:
  static constexpr double kDoubleClickSeconds = 0.5;
  static constexpr float kDoubleClickPixels = 6.f;
  static constexpr int kButtons = 5;  // ImGui's io.MouseDown: left, right, middle, back, forward

  // Key codes are the backend's (GLFW's), as ImGui 1.86 indexes io.KeysDown;
  // times are the window system's clock in seconds (glfwGetTime()).
  void PushKey(int key, bool down, double time_s = 0) {
    events_.push_back({Kind::kKey, key, down, time_s, time_s, 0, 0});
  }
  void PushChar(unsigned int c, double time_s = 0) {
    events_.push_back({Kind::kChar, static_cast<int>(c), false, time_s, time_s, 0, 0});
  }
  // `time_s`: when the window saw the press; `earliest_s` (<= time_s): the
  // earliest it can have happened. GLFW hands events over only when the
  // window polls, once a frame: a click reported at the end of a 400 ms frame
  // may have happened at its start. Two presses are a double-click when they
  // can have been kDoubleClickSeconds apart or less (from the first's report
  // to the earliest moment of the second): a busy machine's slow frames do
  // not split a double-click.
  void PushMouseButton(int button, bool down, double time_s, float x, float y, double earliest_s = -1) {
    events_.push_back({Kind::kButton, button, down, time_s, earliest_s < 0 ? time_s : earliest_s, x, y});
  }
  // Applies events to the current ImGui context's io (KeysDown, MouseDown,
  // the modifier flags, typed characters) until one would change a key or a
  // button a second time this frame. `hold`: a text field was asked for the
  // keyboard and has not taken it yet; nothing is applied. Call once per
  // frame, before ImGui::NewFrame().
  void ApplyToImGui(bool hold = false);
  // After ImGui::NewFrame(): the click count of each button pressed this
  // frame (1 click, 2 double-click, ...) from the events' times, over the
  // count ImGui made from frame times.
  void ApplyClickCounts() const;
  // Events left for later frames: the window should not sleep while any are.
  bool pending() const { return !events_.empty(); }

 private:
  enum class Kind : uint8_t { kKey, kChar, kButton };
  struct Event {
    Kind kind;
    int code;   // key code, character or mouse button
    bool down;  // keys and buttons
    double time_s;
    double earliest_s;  // the earliest it can have happened (see PushMouseButton)
    float x, y;  // buttons: where the pointer was
  };
  std::deque<Event> events_;
  bool button_down_[kButtons] = {};
  bool buttons_seen_ = false;
  int held_frames_ = 0;                        // consecutive frames the keys waited
  bool key_pressed_last_frame_ = false;        // a key (not a modifier) went down in the last applied frame
  double last_press_s_[kButtons] = {-1e9, -1e9, -1e9, -1e9, -1e9};
  float last_press_x_[kButtons] = {}, last_press_y_[kButtons] = {};
  int click_count_[kButtons] = {};             // the last press's count
  int frame_clicks_[kButtons] = {};            // this frame's press count, 0 = no press
};

}  // namespace stepline::app
