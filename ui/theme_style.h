// Switching the theme: the palette of ui/theme.h and ImGui's own widget
// colours together, so panels, tables and the timeline agree.
#pragma once

#include <optional>
#include <string_view>

#include "ui/theme.h"

namespace stepline::ui {

// Sets theme::SetTheme(kind) and ImGui's style colours (needs a context).
void ApplyTheme(theme::ThemeKind kind);
// "dark" / "light" (settings file, --theme); nullopt for anything else.
std::optional<theme::ThemeKind> ParseThemeName(std::string_view name);
const char* ThemeName(theme::ThemeKind kind);
// The View menu's "Theme" submenu (Dark / Light), in every view's menu bar.
void DrawThemeMenu();

}  // namespace stepline::ui
