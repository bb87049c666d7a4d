// Settings file parsing, formatting and persistence; see viewer_settings.h.
#include "app/gui/viewer_settings.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/gui/safe_write.h"

namespace stepline::app {
namespace fs = std::filesystem;

namespace {

// Splitter sizes outside this range are corrupt (or a different unit).
constexpr float kMaxPanePx = 20000.f;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool ParseBool(std::string_view v, bool* out) {
  if (v == "true" || v == "1") {
    *out = true;
  } else if (v == "false" || v == "0") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

bool ParsePane(std::string_view v, float* out) {
  const std::string text(v);
  char* end = nullptr;
  const float f = std::strtof(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(f) || f < 0 || f > kMaxPanePx) return false;
  *out = f;
  return true;
}

// Window sizes outside this range are corrupt; the window would not fit or show.
constexpr int kMinWindowPx = 320, kMaxWindowPx = 16384;

bool ParseWindowSide(std::string_view v, int* out) {
  int n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size() || n < kMinWindowPx || n > kMaxWindowPx) return false;
  *out = n;
  return true;
}

bool ParseTab(std::string_view v, ui::BottomTab* out) {
  static constexpr std::string_view kNames[] = {"idle_gaps", "op_stats", "kernels", "selection"};
  for (size_t i = 0; i < std::size(kNames); ++i) {
    if (v == kNames[i]) {
      *out = static_cast<ui::BottomTab>(i);
      return true;
    }
  }
  return false;
}

std::string TabName(ui::BottomTab t) {
  static constexpr const char* kNames[] = {"idle_gaps", "op_stats", "kernels", "selection"};
  return kNames[static_cast<size_t>(t)];
}

}  // namespace

std::string DefaultSettingsPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/settings.ini";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/settings.ini";
  return {};
}

ViewerSettings ParseSettings(std::string_view text) {
  ViewerSettings s;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = Trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = Trim(line.substr(0, eq)), value = Trim(line.substr(eq + 1));
    // Each key keeps its default when its value does not parse.
    if (key == "show_overview") ParseBool(value, &s.panels.show_overview);
    else if (key == "overview_width") ParsePane(value, &s.panels.overview_width);
    else if (key == "bottom_height") ParsePane(value, &s.panels.bottom_height);
    else if (key == "bottom_tab") ParseTab(value, &s.panels.bottom_tab);
    else if (key == "show_gap_overlay") ParseBool(value, &s.show_gap_overlay);
    else if (key == "show_caption") ParseBool(value, &s.show_caption);
    else if (key == "export_folder") s.export_folder = std::string(value);
    else if (key == "window_width") ParseWindowSide(value, &s.window_width);
    else if (key == "window_height") ParseWindowSide(value, &s.window_height);
  }
  return s;
}

std::string FormatSettings(const ViewerSettings& s) {
  std::ostringstream out;
  out << "# Stepline viewer settings, rewritten on change.\n"
      << "show_overview = " << (s.panels.show_overview ? "true" : "false") << "\n"
      << "overview_width = " << s.panels.overview_width << "\n"
      << "bottom_height = " << s.panels.bottom_height << "\n"
      << "bottom_tab = " << TabName(s.panels.bottom_tab) << "\n"
      << "show_gap_overlay = " << (s.show_gap_overlay ? "true" : "false") << "\n"
      << "show_caption = " << (s.show_caption ? "true" : "false") << "\n"
      << "export_folder = " << s.export_folder << "\n"
      << "window_width = " << s.window_width << "\n"
      << "window_height = " << s.window_height << "\n";
  return out.str();
}

ViewerSettings LoadSettings(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return ParseSettings(text.str());
}

bool SaveSettings(const std::string& path, const ViewerSettings& settings, std::string* error) {
  if (path.empty()) {
    *error = "no settings folder (neither XDG_CONFIG_HOME nor HOME is set)";
    return false;
  }
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  SafeWriteOptions options;
  options.overwrite = true;  // our own file, replaced whole by the rename
  return WriteFileSafely(path, FormatSettings(settings), options, error);
}

void ApplySettings(const ViewerSettings& settings, const std::string& default_folder, ui::ViewState* state) {
  state->panels = settings.panels;
  state->requests.bottom_tab = true;  // the tab bar opens on its first tab otherwise
  state->links.show_gap_overlay = settings.show_gap_overlay;
  state->pictures.show_caption = settings.show_caption;
  state->pictures.export_folder = settings.export_folder.empty() ? default_folder : settings.export_folder;
}

ViewerSettings SettingsOf(const ui::ViewState& state, const std::string& default_folder) {
  ViewerSettings s;
  s.panels = state.panels;
  s.show_gap_overlay = state.links.show_gap_overlay;
  s.show_caption = state.pictures.show_caption;
  s.export_folder = state.pictures.export_folder == default_folder ? std::string() : state.pictures.export_folder;
  return s;
}

}  // namespace stepline::app
