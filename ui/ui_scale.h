// UiScale: the current font size over the size the theme was drawn for, the
// factor every unscaled size in theme.h is multiplied by (Ctrl +/- and HiDPI
// change the font, and the layout follows).
#pragma once

#include <imgui.h>

#include "ui/theme.h"

namespace stepline::ui {

inline float UiScale() { return ImGui::GetFontSize() / theme::kDesignFontSize; }

}  // namespace stepline::ui
