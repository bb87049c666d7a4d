// The "Keyboard and mouse" window every view opens with `?`: its keys and
// what they do, in a table sized to its longest line.
#pragma once

#include <vector>

namespace stepline::ui {

struct Shortcut {
  const char* keys;
  const char* action;
};

// Draws the window while *open is set (its close button clears it).
// `title`: "Keyboard and mouse", with an ImGui "###id" suffix where two
// views' windows must stay apart.
void DrawKeysWindow(const char* title, bool* open, const std::vector<Shortcut>& shortcuts);

}  // namespace stepline::ui
