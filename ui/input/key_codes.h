// GLFW's key codes for the keys the views read by code. ImGui 1.86 indexes
// io.KeysDown by the backend's codes, and ui/ does not include GLFW. Codes,
// not typed characters: with Ctrl held, GLFW on X11 sends no character ('+'
// never arrives as text for Ctrl++).
#pragma once

namespace stepline::ui::keycode {

constexpr int kMinus = 45, k0 = 48, kEqual = 61, kQ = 81;
constexpr int kEscape = 256, kEnter = 257, kBackspace = 259, kRight = 262, kLeft = 263;
constexpr int kF12 = 301, kKp0 = 320, kKpSubtract = 333, kKpAdd = 334, kKpEnter = 335;
// Mouse buttons 4 and 5 (back and forward), as ImGui's io.MouseDown indexes them.
constexpr int kMouseBack = 3, kMouseForward = 4;

}  // namespace stepline::ui::keycode
