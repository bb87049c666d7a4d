// ViewerSettings: what the viewer remembers between runs: the panel layout
// (window size, overview column, splitter sizes, bottom tab), the gap shading, the
// caption toggle, the theme and the folder for pictures and exports. Kept as
// "key = value" lines in $XDG_CONFIG_HOME/stepline/settings.ini (else
// ~/.config/stepline/settings.ini). A missing, unreadable or corrupt file
// gives the defaults; unknown keys and bad values are skipped one by one. A
// damaged file (a line that is not `key = value`, a bad value, binary bytes)
// is first copied aside to settings.ini.bad, so the next save, which goes to
// a temporary file and is renamed over the old one, never loses it silently.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ui/theme.h"
#include "ui/view_state.h"

namespace stepline::app {

struct ViewerSettings {
  ui::PanelLayout panels;
  bool show_gap_overlay = true;
  bool show_caption = false;
  std::string export_folder;  // "" = the default (ScreenshotFolder())
  int window_width = 1600, window_height = 1000;  // the viewer window, screen coordinates
  ui::theme::ThemeKind theme = ui::theme::ThemeKind::kDark;  // View > Theme
  bool operator==(const ViewerSettings&) const = default;
};

// $XDG_CONFIG_HOME/stepline/settings.ini, else ~/.config/...; "" without either.
std::string DefaultSettingsPath();

// `problems` (optional) gets one line per damaged line ("line 3: bad value for
// window_width"); unknown keys are not damage (a newer version wrote them).
ViewerSettings ParseSettings(std::string_view text, std::vector<std::string>* problems = nullptr);
std::string FormatSettings(const ViewerSettings& settings);
// Defaults when `path` is missing or unreadable. A damaged file is copied to
// `path` + ".bad" and `notice` (optional) says so and why.
ViewerSettings LoadSettings(const std::string& path, std::string* notice = nullptr);
// Temporary file then rename (creating the folder); false with a message.
bool SaveSettings(const std::string& path, const ViewerSettings& settings, std::string* error);

// Between the settings and the view state. The export folder equal to
// `default_folder` is stored as "" so a changed default still applies.
void ApplySettings(const ViewerSettings& settings, const std::string& default_folder, ui::ViewState* state);
ViewerSettings SettingsOf(const ui::ViewState& state, const std::string& default_folder);

}  // namespace stepline::app
