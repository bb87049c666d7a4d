// ApplyTheme: the palette and ImGui's style colours.
#include "ui/theme_style.h"

#include <imgui.h>

namespace stepline::ui {

void ApplyTheme(theme::ThemeKind kind) {
  theme::SetTheme(kind);
  if (ImGui::GetCurrentContext() == nullptr) return;
  if (kind == theme::ThemeKind::kLight) {
    ImGui::StyleColorsLight();
  } else {
    ImGui::StyleColorsDark();
  }
}

std::optional<theme::ThemeKind> ParseThemeName(std::string_view name) {
  if (name == "dark") return theme::ThemeKind::kDark;
  if (name == "light") return theme::ThemeKind::kLight;
  return std::nullopt;
}

const char* ThemeName(theme::ThemeKind kind) { return kind == theme::ThemeKind::kLight ? "light" : "dark"; }

void DrawThemeMenu() {
  if (!ImGui::BeginMenu("Theme")) return;
  // Light: for projectors and printed pictures; the app remembers the choice.
  for (const theme::ThemeKind kind : {theme::ThemeKind::kDark, theme::ThemeKind::kLight}) {
    if (ImGui::MenuItem(kind == theme::ThemeKind::kDark ? "Dark" : "Light", nullptr, theme::CurrentTheme() == kind)) {
      ApplyTheme(kind);
    }
  }
  ImGui::EndMenu();
}

}  // namespace stepline::ui
