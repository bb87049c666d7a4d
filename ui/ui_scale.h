// UiScale: the current font size over the size the theme was drawn for, the
// factor every unscaled size in theme.h is multiplied by (Ctrl +/- and HiDPI
// change the font, and the layout follows).
#pragma once

#include <imgui.h>

#include "ui/theme.h"

namespace stepline::ui {

inline float UiScale() { return ImGui::GetFontSize() / theme::kDesignFontSize; }

// A view's caption bar: one line of text with theme::kCaptionPadding around it.
inline float CaptionHeight() { return ImGui::GetFontSize() + 2 * theme::kCaptionPadding * UiScale(); }

}  // namespace stepline::ui
