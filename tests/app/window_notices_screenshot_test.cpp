// The window as a new user meets it, in real pictures (`stepline screenshot`
// under xvfb-run): a cut file shows the data-loss banner across the timeline,
// the built-in demo its demo strip, a 1024x700 window gives the timeline the
// full width (the overview becomes a summary line), and the Open dialog at
// that size stays inside the window. Colours are the theme's strip colours
// and ImGui's active title bar. Skips where xvfb-run is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "ui/theme.h"

namespace stepline::app {
namespace {

using stepline::testing::HaveXvfb;
using stepline::testing::Image;
using stepline::testing::Pixel;
using stepline::testing::ReadPng;
using stepline::testing::Screenshot;

// 0xBBGGRR of a theme colour (theme colours are ImGui's packed ABGR).
uint32_t Rgb(uint32_t theme_colour) { return theme_colour & 0xFFFFFF; }

size_t CountColour(const Image& img, uint32_t rgb) {
  size_t n = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) n += Pixel(img, x, y) == rgb ? 1 : 0;
  }
  return n;
}

// The leftmost and rightmost x of the longest horizontal run of `rgb`.
std::pair<int, int> LongestRun(const Image& img, uint32_t rgb) {
  std::pair<int, int> best{-1, -2};
  for (int y = 0; y < img.h; ++y) {
    int start = -1;
    for (int x = 0; x <= img.w; ++x) {
      const bool in = x < img.w && Pixel(img, x, y) == rgb;
      if (in && start < 0) start = x;
      if (!in && start >= 0) {
        if (x - 1 - start > best.second - best.first) best = {start, x - 1};
        start = -1;
      }
    }
  }
  return best;
}

class WindowNoticesScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the GUI screenshot test needs it (scripts install it)";
    dir_ = MakeScratchDir("stepline-notices");
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  Image Shot(const std::string& args, const std::string& name) {
    const std::string out = (dir_ / name).string();
    EXPECT_EQ(Screenshot(args + " --out '" + out + "'"), 0) << args;
    return ReadPng(out);
  }
  std::filesystem::path dir_;
};

TEST_F(WindowNoticesScreenshotTest, CutFileShowsTheDataLossBanner) {
  const std::string whole = (dir_ / "whole.json").string(), cut = (dir_ / "cut.json").string();
  WriteDemoJson("input-bound", demo::DemoStyle::kTensorFlow, whole);
  const std::string text = ReadFile(whole);
  std::ofstream(cut, std::ios::binary) << text.substr(0, text.size() / 2);  // the second half is lost
  const Image with = Shot("'" + cut + "' --size 1600x900", "cut.png");
  const Image without = Shot("'" + whole + "' --size 1600x900", "whole.png");
  ASSERT_EQ(with.w, 1600);
  ASSERT_EQ(without.w, 1600);
  const uint32_t banner = Rgb(ui::theme::kDataLossBackground);
  EXPECT_EQ(CountColour(without, banner), 0u);
  const auto [x0, x1] = LongestRun(with, banner);
  EXPECT_GT(x1 - x0, 800) << "a strip across the timeline";
  EXPECT_GT(CountColour(with, banner), 800u * 15u);
}

TEST_F(WindowNoticesScreenshotTest, DemoIsLabelledAndSmallWindowGivesTheTimelineTheWidth) {
  const uint32_t strip = Rgb(ui::theme::kDemoStripBackground);
  const Image wide = Shot("--demo input-bound --size 1600x900", "demo_wide.png");
  const Image small = Shot("--demo input-bound --size 1024x700", "demo_small.png");
  ASSERT_EQ(small.w, 1024);
  ASSERT_EQ(small.h, 700);
  const auto [wide_x0, wide_x1] = LongestRun(wide, strip);
  const auto [small_x0, small_x1] = LongestRun(small, strip);
  ASSERT_GE(wide_x1, 0) << "the demo strip is drawn";
  // 1600 px: right of the overview column (at most a third of the width).
  EXPECT_GT(wide_x0, 300);
  EXPECT_LT(wide_x0, 1600 / 3 + 20);
  // 1024 px: the overview is a summary line; the timeline starts at the left.
  ASSERT_GE(small_x1, 0);
  EXPECT_LT(small_x0, 40);
  EXPECT_GT(small_x1, 1024 - 60);
}

TEST_F(WindowNoticesScreenshotTest, OpenDialogStaysInsideASmallWindow) {
  std::filesystem::create_directories(dir_ / "traces");
  std::ofstream(dir_ / "traces" / "run.json") << "[]";
  const Image img = Shot("--demo input-bound --size 1024x700 --file-dialog '" + (dir_ / "traces").string() + "'",
                         "dialog.png");
  ASSERT_EQ(img.w, 1024);
  const uint32_t title_bar = 0x7A4A29;  // ImGui's dark style, TitleBgActive (41, 74, 122)
  const auto [x0, x1] = LongestRun(img, title_bar);
  ASSERT_GE(x1, 0) << "the dialog's title bar";
  EXPECT_GT(x1 - x0, 600) << "a dialog, not a button";
  EXPECT_GE(x0, 4);
  EXPECT_LE(x1, 1024 - 4);
}

}  // namespace
}  // namespace stepline::app
