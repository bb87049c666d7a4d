// Timestamped names for pictures and exports: the stamp is the local time
// asked for, and a name already taken gets -2, -3, ...
#include "app/gui/screenshot_name.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

class ScreenshotNameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* tz = std::getenv("TZ")) saved_tz_ = tz;
    had_tz_ = std::getenv("TZ") != nullptr;
    setenv("TZ", "UTC", 1);
    tzset();
    dir_ = fs::temp_directory_path() / ("stepline-names-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (had_tz_) setenv("TZ", saved_tz_.c_str(), 1);
    else unsetenv("TZ");
    tzset();
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::string saved_tz_;
  bool had_tz_ = false;
};

// 2026-11-23 18:15:00 UTC.
constexpr std::time_t kWhen = 1795457700;

TEST_F(ScreenshotNameTest, StampsStemAndExtension) {
  EXPECT_EQ(TimestampedPath(dir_.string(), "ops", "csv", kWhen), (dir_ / "stepline-ops-20261123-181500.csv").string());
  EXPECT_EQ(TimestampedPath(dir_.string(), "", "png", kWhen), (dir_ / "stepline-20261123-181500.png").string());
}

TEST_F(ScreenshotNameTest, TakenNamesGetACounter) {
  const std::string first = TimestampedPath(dir_.string(), "timeline", "png", kWhen);
  std::ofstream(first) << "x";
  const std::string second = TimestampedPath(dir_.string(), "timeline", "png", kWhen);
  EXPECT_EQ(second, (dir_ / "stepline-timeline-20261123-181500-2.png").string());
  std::ofstream(second) << "x";
  EXPECT_EQ(TimestampedPath(dir_.string(), "timeline", "png", kWhen),
            (dir_ / "stepline-timeline-20261123-181500-3.png").string());
}

TEST_F(ScreenshotNameTest, ExpandsHome) {
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') GTEST_SKIP() << "HOME is not set";
  EXPECT_EQ(ExpandHome("~"), std::string(home));
  EXPECT_EQ(ExpandHome("~/shots"), std::string(home) + "/shots");
  EXPECT_EQ(ExpandHome("~other/x"), "~other/x");
  EXPECT_EQ(ExpandHome("/abs/~"), "/abs/~");
}

// The default folder: $STEPLINE_SCREENSHOT_DIR, else ~/Pictures when it
// exists, else the current directory spelled out in full.
TEST_F(ScreenshotNameTest, DefaultFolderFollowsTheEnvironmentThenPicturesThenTheCurrentDirectory) {
  const char* old_home = std::getenv("HOME");
  const char* old_dir = std::getenv("STEPLINE_SCREENSHOT_DIR");
  const std::string saved_home = old_home ? old_home : "", saved_dir = old_dir ? old_dir : "";
  const fs::path saved_cwd = fs::current_path();
  const fs::path home = dir_ / "home";
  fs::create_directories(home);
  setenv("HOME", home.c_str(), 1);
  unsetenv("STEPLINE_SCREENSHOT_DIR");
  fs::current_path(dir_);
  EXPECT_EQ(ScreenshotFolder(), fs::current_path().string());  // no ~/Pictures yet
  fs::create_directories(home / "Pictures");
  EXPECT_EQ(ScreenshotFolder(), (home / "Pictures").string());
  setenv("STEPLINE_SCREENSHOT_DIR", "/tmp/elsewhere", 1);
  EXPECT_EQ(ScreenshotFolder(), "/tmp/elsewhere");
  fs::current_path(saved_cwd);
  if (old_home) setenv("HOME", saved_home.c_str(), 1);
  else unsetenv("HOME");
  if (old_dir) setenv("STEPLINE_SCREENSHOT_DIR", saved_dir.c_str(), 1);
  else unsetenv("STEPLINE_SCREENSHOT_DIR");
}

}  // namespace
}  // namespace stepline::app
