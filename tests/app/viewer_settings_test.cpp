// The viewer's remembered layout: a round trip through the file keeps every
// field; missing or corrupt files and values fall back to the defaults one
// key at a time; the default export folder is not pinned in the file.
#include "app/gui/viewer_settings.h"
#include "tests/support/file_bytes.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

ViewerSettings Custom() {
  ViewerSettings s;
  s.panels.show_overview = false;
  s.panels.overview_width = 512.5f;
  s.panels.bottom_height = 401;
  s.panels.bottom_tab = ui::BottomTab::kKernels;
  s.show_gap_overlay = false;
  s.show_caption = true;
  s.export_folder = "/tmp/my shots = here";
  s.window_width = 1917;
  s.window_height = 1043;
  s.theme = ui::theme::ThemeKind::kLight;
  return s;
}

TEST(ViewerSettingsTest, TextRoundTrip) {
  const ViewerSettings s = Custom();
  EXPECT_EQ(ParseSettings(FormatSettings(s)), s);
  EXPECT_EQ(ParseSettings(FormatSettings(ViewerSettings{})), ViewerSettings{});
}

TEST(ViewerSettingsTest, ThemeIsRemembered) {
  EXPECT_NE(FormatSettings(Custom()).find("theme = light\n"), std::string::npos);
  EXPECT_EQ(ParseSettings("theme = light\n").theme, ui::theme::ThemeKind::kLight);
  std::vector<std::string> problems;
  EXPECT_EQ(ParseSettings("theme = sepia\n", &problems).theme, ui::theme::ThemeKind::kDark);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("theme"), std::string::npos);
}

TEST(ViewerSettingsTest, FileRoundTripCreatesTheFolder) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-settings-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string path = (dir / "stepline" / "settings.ini").string();
  EXPECT_EQ(LoadSettings(path), ViewerSettings{}) << "a missing file gives the defaults";
  std::string error;
  ASSERT_TRUE(SaveSettings(path, Custom(), &error)) << error;
  EXPECT_EQ(LoadSettings(path), Custom());
  ViewerSettings other = Custom();
  other.panels.bottom_height = 222;
  ASSERT_TRUE(SaveSettings(path, other, &error)) << error;  // replaces our own file
  EXPECT_EQ(LoadSettings(path), other);
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "stepline")) ++files;
  EXPECT_EQ(files, 1u) << "temporary file left behind";
  fs::remove_all(dir);
}

TEST(ViewerSettingsTest, CorruptValuesFallBackOneByOne) {
  const ViewerSettings s = ParseSettings(
      "\x01\x02 garbage without equals\n"
      "show_overview = maybe\n"
      "overview_width = nan\n"
      "bottom_height = 400\n"
      "bottom_tab = nonsense\n"
      "show_caption = true\r\n"
      "unknown_key = 3\n"
      "= no key\n"
      "show_gap_overlay=false");
  const ViewerSettings d;
  EXPECT_EQ(s.panels.show_overview, d.panels.show_overview);
  EXPECT_EQ(s.panels.overview_width, d.panels.overview_width);
  EXPECT_EQ(s.panels.bottom_tab, d.panels.bottom_tab);
  EXPECT_EQ(s.panels.bottom_height, 400.f);
  EXPECT_TRUE(s.show_caption);
  EXPECT_FALSE(s.show_gap_overlay);
  for (const char* bad : {"overview_width = -3", "overview_width = 1e9", "overview_width = 12px", "overview_width ="}) {
    EXPECT_EQ(ParseSettings(bad).panels.overview_width, d.panels.overview_width) << bad;
  }
  // A window too small to use or larger than any screen is not restored.
  for (const char* bad : {"window_width = 12", "window_width = 99999", "window_width = 1200.5", "window_width = -1"}) {
    EXPECT_EQ(ParseSettings(bad).window_width, d.window_width) << bad;
  }
  EXPECT_EQ(ParseSettings("window_height = 700").window_height, 700);
}

TEST(ViewerSettingsTest, BinaryGarbageFileGivesDefaults) {
  const fs::path path = fs::temp_directory_path() / ("stepline-settings-bad-" + std::to_string(::getpid()));
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 7919) & 0xff));
  }
  EXPECT_EQ(LoadSettings(path.string()), ViewerSettings{});
  fs::remove(path);
}

// A damaged file gives the defaults for what is damaged, is copied aside to
// settings.ini.bad before anything replaces it, and the notice says where;
// the save that follows writes a clean file and leaves the copy alone.
TEST(ViewerSettingsTest, DamagedFileIsKeptAsideBeforeTheNextSave) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-settings-damaged-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "settings.ini").string();
  const std::string damaged = "window_width = 1700\nwindow_height = tall\n\x01\x02\xff garbage\n";
  {
    std::ofstream out(path, std::ios::binary);
    out << damaged;
  }
  std::string notice;
  const ViewerSettings s = LoadSettings(path, &notice);
  EXPECT_EQ(s.window_width, 1700) << "good values still load";
  EXPECT_EQ(s.window_height, ViewerSettings{}.window_height);
  EXPECT_NE(notice.find(path + ".bad"), std::string::npos) << notice;
  EXPECT_NE(notice.find("line 2: bad value for window_height"), std::string::npos) << notice;
  EXPECT_EQ(::stepline::testing::ReadFileBytes(path + ".bad"), damaged);
  std::string error;
  ASSERT_TRUE(SaveSettings(path, s, &error)) << error;
  std::string again;
  EXPECT_EQ(LoadSettings(path, &again), s);
  EXPECT_EQ(again, "") << "the saved file is clean";
  EXPECT_EQ(::stepline::testing::ReadFileBytes(path + ".bad"), damaged);
  fs::remove_all(dir);
}

TEST(ViewerSettingsTest, CleanFileAndUnknownKeysAreNotDamage) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-settings-clean-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "settings.ini").string();
  {
    std::ofstream out(path, std::ios::binary);
    out << FormatSettings(Custom()) << "a_key_from_a_newer_version = 3\n# caf\xc3\xa9\n";
  }
  std::string notice;
  EXPECT_EQ(LoadSettings(path, &notice), Custom());
  EXPECT_EQ(notice, "");
  EXPECT_FALSE(fs::exists(path + ".bad"));
  fs::remove_all(dir);
}

TEST(ViewerSettingsTest, OversizedFileIsDamageAndNotRead) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-settings-huge-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "settings.ini").string();
  {
    std::ofstream out(path, std::ios::binary);
    for (int i = 0; i < 20000; ++i) out << "window_width = 1700\n";
  }
  std::string notice;
  EXPECT_EQ(LoadSettings(path, &notice), ViewerSettings{});
  EXPECT_NE(notice.find("larger than"), std::string::npos) << notice;
  EXPECT_TRUE(fs::exists(path + ".bad"));
  fs::remove_all(dir);
}

TEST(ViewerSettingsTest, ProblemsNameTheLine) {
  std::vector<std::string> problems;
  ParseSettings("# comment\n\nshow_caption = true\nno equals here\n= 3\noverview_width = -1\n", &problems);
  EXPECT_EQ(problems, (std::vector<std::string>{"line 4: not `key = value`", "line 5: no key before `=`",
                                                "line 6: bad value for overview_width"}));
}

TEST(ViewerSettingsTest, DefaultFolderIsNotPinned) {
  ui::ViewState state;
  ApplySettings(ViewerSettings{}, "/home/u/Pictures", &state);
  EXPECT_EQ(state.pictures.export_folder, "/home/u/Pictures");
  EXPECT_TRUE(state.requests.bottom_tab) << "the remembered tab must be selected, not the tab bar's first";
  EXPECT_EQ(SettingsOf(state, "/home/u/Pictures").export_folder, "");
  state.pictures.export_folder = "/data/shots";
  EXPECT_EQ(SettingsOf(state, "/home/u/Pictures").export_folder, "/data/shots");
  ApplySettings(Custom(), "/x", &state);
  // The window size is the app's to fill in (the view state has no window).
  ViewerSettings want = Custom();
  want.window_width = ViewerSettings{}.window_width;
  want.window_height = ViewerSettings{}.window_height;
  EXPECT_EQ(SettingsOf(state, "/x"), want);
}

TEST(ViewerSettingsTest, XdgConfigHomeDecidesThePath) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old ? old : "";
  setenv("XDG_CONFIG_HOME", "/cfg", 1);
  EXPECT_EQ(DefaultSettingsPath(), "/cfg/stepline/settings.ini");
  if (old) setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace stepline::app
