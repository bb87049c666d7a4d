// Settings file parsing, formatting and persistence; see viewer_settings.h.
#include "app/gui/viewer_settings.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "export/safe_write.h"
#include "ui/theme_style.h"

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
  for (int i = 0; i < ui::kBottomTabCount; ++i) {
    if (v == ui::BottomTabName(static_cast<ui::BottomTab>(i))) {
      *out = static_cast<ui::BottomTab>(i);
      return true;
    }
  }
  return false;
}

std::string TabName(ui::BottomTab t) { return std::string(ui::BottomTabName(t)); }

// Text a person or FormatSettings wrote: no control bytes but tabs, valid UTF-8.
bool IsCleanText(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7F) return false;
      ++i;
      continue;
    }
    int extra = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
    } else {
      return false;
    }
    if (s.size() - i <= static_cast<size_t>(extra)) return false;
    for (int k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0xC0) != 0x80) return false;
    }
    i += static_cast<size_t>(extra) + 1;
  }
  return true;
}

bool ParseTheme(std::string_view v, ui::theme::ThemeKind* out) {
  const std::optional<ui::theme::ThemeKind> kind = ui::ParseThemeName(v);
  if (kind) *out = *kind;
  return kind.has_value();
}

constexpr size_t kMaxSettingsBytes = 64 * 1024;

}  // namespace

std::string DefaultSettingsPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/stepline/settings.ini";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/stepline/settings.ini";
  return {};
}

ViewerSettings ParseSettings(std::string_view text, std::vector<std::string>* problems) {
  ViewerSettings s;
  int line_number = 0;
  const auto problem = [&](const std::string& what) {
    if (problems) problems->push_back("line " + std::to_string(line_number) + ": " + what);
  };
  while (!text.empty()) {
    ++line_number;
    const size_t nl = text.find('\n');
    const std::string_view line = Trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line.empty() || line.front() == '#') continue;
    if (!IsCleanText(line)) {
      problem("control or invalid UTF-8 bytes");
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos) {
      problem("not `key = value`");
      continue;
    }
    const std::string_view key = Trim(line.substr(0, eq)), value = Trim(line.substr(eq + 1));
    // Each key keeps its default when its value does not parse.
    bool ok = true;
    if (key == "show_overview") ok = ParseBool(value, &s.panels.show_overview);
    else if (key == "overview_width") ok = ParsePane(value, &s.panels.overview_width);
    else if (key == "bottom_height") ok = ParsePane(value, &s.panels.bottom_height);
    else if (key == "bottom_tab") ok = ParseTab(value, &s.panels.bottom_tab);
    else if (key == "show_gap_overlay") ok = ParseBool(value, &s.show_gap_overlay);
    else if (key == "show_caption") ok = ParseBool(value, &s.show_caption);
    else if (key == "export_folder") s.export_folder = std::string(value);
    else if (key == "window_width") ok = ParseWindowSide(value, &s.window_width);
    else if (key == "window_height") ok = ParseWindowSide(value, &s.window_height);
    else if (key == "theme") ok = ParseTheme(value, &s.theme);
    else if (key.empty()) problem("no key before `=`");
    if (!ok) problem("bad value for " + std::string(key));
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
      << "window_height = " << s.window_height << "\n"
      << "theme = " << ui::ThemeName(s.theme) << "\n";
  return out.str();
}

ViewerSettings LoadSettings(const std::string& path, std::string* notice) {
  if (path.empty()) return {};
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  // Our file is a few hundred bytes; anything huge is not ours to slurp.
  std::string text(kMaxSettingsBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  std::vector<std::string> problems;
  ViewerSettings settings;
  if (text.size() > kMaxSettingsBytes) {
    problems.push_back("larger than " + std::to_string(kMaxSettingsBytes) + " bytes");
  } else {
    settings = ParseSettings(text, &problems);
  }
  if (problems.empty()) return settings;
  // Keep the damaged file for the user before any save replaces it.
  const std::string bad = path + ".bad";
  std::error_code ec;
  fs::copy_file(path, bad, fs::copy_options::overwrite_existing, ec);
  if (notice) {
    *notice = path + " is damaged (" + problems.front() +
              (problems.size() > 1 ? " and " + std::to_string(problems.size() - 1) + " more" : "") + "); " +
              (ec ? "could not keep a copy (" + ec.message() + ")" : "kept a copy as " + bad) +
              "; damaged settings use their defaults";
  }
  return settings;
}

bool SaveSettings(const std::string& path, const ViewerSettings& settings, std::string* error) {
  if (path.empty()) {
    *error = "no settings folder (neither XDG_CONFIG_HOME nor HOME is set)";
    return false;
  }
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  exports::SafeWriteOptions options;
  options.overwrite = true;  // our own file, replaced whole by the rename
  return exports::WriteFileSafely(path, FormatSettings(settings), options, error);
}

void ApplySettings(const ViewerSettings& settings, const std::string& default_folder, ui::ViewState* state) {
  state->panels = settings.panels;
  state->requests.bottom_tab = true;  // the tab bar opens on its first tab otherwise
  state->links.show_gap_overlay = settings.show_gap_overlay;
  state->pictures.show_caption = settings.show_caption;
  state->pictures.export_folder = settings.export_folder.empty() ? default_folder : settings.export_folder;
  ui::ApplyTheme(settings.theme);
}

ViewerSettings SettingsOf(const ui::ViewState& state, const std::string& default_folder) {
  ViewerSettings s;
  s.panels = state.panels;
  s.show_gap_overlay = state.links.show_gap_overlay;
  s.show_caption = state.pictures.show_caption;
  s.export_folder = state.pictures.export_folder == default_folder ? std::string() : state.pictures.export_folder;
  s.theme = ui::theme::CurrentTheme();
  return s;
}

}  // namespace stepline::app
