// UiScale: the current font size over the size the theme was drawn for, the
// factor every unscaled size in theme.h is multiplied by (Ctrl +/- and HiDPI
// change the font, and the layout follows).
#pragma once

#include <imgui.h>

#include "ui/theme.h"

namespace stepline::ui {

inline float UiScale() { return ImGui::GetFontSize() / theme::kDesignFontSize; }

// The display's content scale (2 on a screen at 2x scaling), which the app
// sets when it makes the window; 1 headless.
inline float g_display_scale = 1.f;
inline void SetDisplayScale(float scale) { g_display_scale = scale > 0 ? scale : 1.f; }
// Window px per logical px for layout cutoffs: the display scale times the
// user's text size. Not UiScale: the window's font is 15 px at 1x where the
// theme was drawn for 13, and a 1280 px window would count as 1109.
inline float LayoutScale() { return g_display_scale * ImGui::GetIO().FontGlobalScale; }

// A view's caption bar: one line of text with theme::kCaptionPadding around it.
inline float CaptionHeight() { return ImGui::GetFontSize() + 2 * theme::kCaptionPadding * UiScale(); }

}  // namespace stepline::ui
