// Saving one panel as a picture: the panel's rectangle in ImGui coordinates
// (logical px), handed to the app, which crops its rendered framebuffer to it
// (times the framebuffer scale on HiDPI screens). Plus the right-click menu
// every panel opens, shared with the compare view.
#pragma once

#include <string>

namespace stepline::ui {

struct PanelShot {
  std::string stem;                   // names the file: "timeline", "ops", "step-chart"
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // ImGui display coordinates, x1 > x0, y1 > y0
};

// The current window's rectangle (call inside the panel's window).
PanelShot CurrentWindowShot(const char* stem);
// A context menu that opens on a right-click anywhere over the current window
// or its child windows, unless another popup (say a track menu) took the
// click. Call at the end of the panel, inside its window; when it returns
// true, add items and call ImGui::EndPopup().
bool BeginPanelMenu(const char* id);
// Draws `text` as the caption strip across the current window at the cursor
// (one line, clipped at the right edge) and returns the strip's rectangle,
// which the picture of the whole window includes. The single and compare
// views draw their captions through it.
PanelShot DrawCaptionStrip(const std::string& text);

}  // namespace stepline::ui
