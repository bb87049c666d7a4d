// `stepline screenshot DIR --view ranks` under xvfb-run: the
// ranks view of the ddp-straggler demo is drawn: right size, not blank, the
// straggler's input-idle red and the collective teal in the bars, the
// timeline's main-thread lane and collective wait, the same pixels twice.
// Skips (with a message) where xvfb-run is not installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "app/cli/commands.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "ui/theme.h"

namespace stepline::app {
namespace {

TEST(RanksScreenshotTest, DrawsTheRanksViewOfTheDemo) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-shot");
  const RunOutput demo = RunCommand(RunDemo, {"ddp-straggler", "--ranks", "4", "--steps", "4", "--kernels", "6",
                                              "--out", (dir / "run").string()});
  ASSERT_EQ(demo.code, 0) << demo.err;
  const std::string a = (dir / "a.png").string(), b = (dir / "b.png").string();
  ASSERT_EQ(::stepline::testing::Screenshot((dir / "run").string() + " --view ranks --size 1000x600 --out " + a), 0);
  ASSERT_EQ(::stepline::testing::Screenshot((dir / "run").string() + " --view ranks --size 1000x600 --out " + b), 0);
  const ::stepline::testing::Image img = ::stepline::testing::ReadPng(a);
  ASSERT_EQ(img.w, 1000);
  ASSERT_EQ(img.h, 600);
  const std::set<uint32_t> colors = ::stepline::testing::Colors(img);
  EXPECT_GT(colors.size(), 50u);
  EXPECT_TRUE(colors.count(0x5053EFu)) << "no input-idle red (239,83,80) in the bars";
  EXPECT_TRUE(colors.count(0x7B8900u)) << "no collective teal (0,137,123) in the bars";
  // The timeline's lanes: the main thread's blue and the collective wait's orange fill.
  EXPECT_TRUE(colors.count(0xF48542u)) << "no main-thread lane blue (66,133,244) in the timeline";
  EXPECT_TRUE(colors.count(0x658AFFu)) << "no collective-wait orange (255,138,101) in the timeline";
  EXPECT_EQ(::stepline::testing::ReadPng(b).rgba, img.rgba);
  // A screenshot of a missing directory fails with a message, no window.
  EXPECT_NE(::stepline::testing::Screenshot((dir / "none").string() + " --view ranks --out " + (dir / "c.png").string()), 0);
}

// The ranks view has the menu bar every other view has: its top rows are
// the single view's menu bar colour, with "File" drawn at the left.
TEST(RanksScreenshotTest, HasTheMenuBarOfTheOtherViews) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-shot-menu");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "2", "--steps", "2", "--kernels", "3", "--out",
                                 (dir / "run").string()})
                .code,
            0);
  const std::string ranks = (dir / "ranks.png").string(), single = (dir / "single.png").string();
  ASSERT_EQ(::stepline::testing::Screenshot((dir / "run").string() + " --view ranks --size 1024x700 --out " + ranks), 0);
  ASSERT_EQ(::stepline::testing::Screenshot("--demo small-batch --size 1024x700 --out " + single), 0);
  const ::stepline::testing::Image r = ::stepline::testing::ReadPng(ranks), s = ::stepline::testing::ReadPng(single);
  ASSERT_EQ(r.w, 1024);
  const uint32_t bar = ::stepline::testing::Pixel(s, 700, 3);
  int same = 0;
  for (int x = 0; x < r.w; ++x) same += ::stepline::testing::Pixel(r, x, 3) == bar;
  EXPECT_GT(same, r.w * 3 / 4) << "the ranks view's top row is not a menu bar";
  std::set<uint32_t> title_colors;  // "File": text pixels on the bar
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 40; ++x) title_colors.insert(::stepline::testing::Pixel(r, x, y));
  }
  EXPECT_GT(title_colors.size(), 3u) << "no menu title on the ranks view's bar";
}

// Pixel rows of [0, y_end) in which the two pictures differ.
int DifferingRows(const ::stepline::testing::Image& a, const ::stepline::testing::Image& b, int y_end) {
  int rows = 0;
  for (int y = 0; y < y_end; ++y) {
    for (int x = 0; x < a.w; ++x) {
      if (::stepline::testing::Pixel(a, x, y) != ::stepline::testing::Pixel(b, x, y)) {
        ++rows;
        break;
      }
    }
  }
  return rows;
}

// A TensorBoard folder of three runs: `--runs` shows the run picker's list
// (three rows and a header under the run line); one run alone has no picker.
TEST(RanksScreenshotTest, TheRunPickerListsTheFoldersRuns) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-shot-runs");
  const std::filesystem::path profile = dir / "logs" / "plugins" / "profile";
  for (const char* run : {"2024_05_01_10_00_00", "2024_05_01_11_00_00", "2024_05_01_12_00_00"}) {
    const RunOutput demo = RunCommand(RunDemo, {"ddp-straggler", "--ranks", "2", "--steps", "2", "--kernels", "2",
                                                "--out", (profile / run).string()});
    ASSERT_EQ(demo.code, 0) << demo.err;
  }
  const std::string logs = (dir / "logs").string(), a = (dir / "a.png").string(), b = (dir / "b.png").string();
  ASSERT_EQ(::stepline::testing::Screenshot(logs + " --view ranks --size 1000x600 --out " + a), 0);
  ASSERT_EQ(::stepline::testing::Screenshot(logs + " --view ranks --runs --size 1000x600 --out " + b), 0);
  const ::stepline::testing::Image closed = ::stepline::testing::ReadPng(a), open = ::stepline::testing::ReadPng(b);
  ASSERT_EQ(open.w, 1000);
  // Four lines of text at the default 13 px font take more than 60 pixel rows.
  EXPECT_GT(DifferingRows(closed, open, 200), 60);
  // One run: no picker, so --runs draws the same picture.
  const std::string one = (profile / "2024_05_01_10_00_00").string();
  const std::string c = (dir / "c.png").string(), d = (dir / "d.png").string();
  ASSERT_EQ(::stepline::testing::Screenshot(one + " --view ranks --size 1000x600 --out " + c), 0);
  ASSERT_EQ(::stepline::testing::Screenshot(one + " --view ranks --runs --size 1000x600 --out " + d), 0);
  EXPECT_EQ(::stepline::testing::ReadPng(c).rgba, ::stepline::testing::ReadPng(d).rgba);
}

// The first and last pixel rows in which the two pictures differ; {-1, -1} when none.
std::pair<int, int> DifferingRowSpan(const ::stepline::testing::Image& a, const ::stepline::testing::Image& b) {
  std::pair<int, int> span{-1, -1};
  for (int y = 0; y < a.h; ++y) {
    for (int x = 0; x < a.w; ++x) {
      if (::stepline::testing::Pixel(a, x, y) != ::stepline::testing::Pixel(b, x, y)) {
        if (span.first < 0) span.first = y;
        span.second = y;
        break;
      }
    }
  }
  return span;
}

// Zoomed in on 8 ms of step 1 of a 4-rank demo (clocks 7 ms apart), ranks
// are drawn from their slices once loaded: with a budget of 2 ranks
// (STEPLINE_RANK_DETAIL_RANKS) the top two groups are the pictures's with
// every rank loaded, the bottom two the picture's with none (summaries).
TEST(RanksScreenshotTest, ZoomedInLoadedRanksAreDrawnFromTheirSlices) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-shot-detail");
  const RunOutput demo = RunCommand(RunDemo, {"ddp-straggler", "--ranks", "4", "--steps", "4", "--kernels", "6",
                                              "--skew-us", "7000", "--out", (dir / "run").string()});
  ASSERT_EQ(demo.code, 0) << demo.err;
  const auto shot = [&](const char* budget, const std::string& name) {
    ::setenv("STEPLINE_RANK_DETAIL_RANKS", budget, 1);
    const std::string png = (dir / name).string();
    const int code = ::stepline::testing::Screenshot((dir / "run").string() +
                                                     " --view ranks --step 1 --range 0:8 --size 1200x700 --out " + png);
    ::unsetenv("STEPLINE_RANK_DETAIL_RANKS");
    EXPECT_EQ(code, 0) << name;
    return ::stepline::testing::ReadPng(png);
  };
  const ::stepline::testing::Image all = shot("4", "all.png"), two = shot("2", "two.png"), none = shot("0", "none.png");
  ASSERT_EQ(all.w, 1200);
  // Slices differ from summaries; the top two ranks' rows are above the bottom two's.
  const auto top = DifferingRowSpan(two, none), bottom = DifferingRowSpan(two, all);
  ASSERT_GE(top.first, 0) << "no rank drawn from its slices with a budget of 2";
  ASSERT_GE(bottom.first, 0) << "every rank drawn from its slices with a budget of 2";
  EXPECT_LT(top.second, bottom.first);
  EXPECT_GT(top.second - top.first, 30);  // two lane groups of >= 30 px
  // The lanes' text: slice names in the loaded ranks (the summaries have none).
  EXPECT_GT(DifferingRows(all, none, all.h), 60);
}

// Share of the picture's pixels darker than `luma` (0..255).
double RanksShotDarkShare(const ::stepline::testing::Image& img, int luma) {
  size_t dark = 0;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    dark += (img.rgba[i] * 299 + img.rgba[i + 1] * 587 + img.rgba[i + 2] * 114) / 1000 < luma ? 1 : 0;
  }
  return img.rgba.empty() ? 0 : static_cast<double>(dark) / static_cast<double>(img.rgba.size() / 4);
}

size_t RanksShotCount(const ::stepline::testing::Image& img, uint32_t rgba) {
  size_t n = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) n += ::stepline::testing::Pixel(img, x, y) == (rgba & 0xFFFFFF) ? 1 : 0;
  }
  return n;
}

// The ranks view in the light theme: a light picture (the chrome, the ruler,
// the lanes and the labels from the light palette; none of the dark one's
// backgrounds left), its data colours as in the dark theme, and text dark on
// light.
TEST(RanksScreenshotTest, TheLightThemeDrawsEveryPartLight) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; window test skipped";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("ranks-shot-light");
  ASSERT_EQ(RunCommand(RunDemo, {"ddp-straggler", "--ranks", "4", "--steps", "4", "--kernels", "6", "--out",
                                 (dir / "run").string()})
                .code,
            0);
  const std::string light_png = (dir / "light.png").string(), dark_png = (dir / "dark.png").string();
  const std::string run = (dir / "run").string() + " --view ranks --size 1000x600";
  ASSERT_EQ(::stepline::testing::Screenshot(run + " --theme light --out " + light_png), 0) << "the light theme is drawn";
  ASSERT_EQ(::stepline::testing::Screenshot(run + " --out " + dark_png), 0);
  const ::stepline::testing::Image light = ::stepline::testing::ReadPng(light_png);
  const ::stepline::testing::Image dark = ::stepline::testing::ReadPng(dark_png);
  ASSERT_EQ(light.w, 1000);
  ASSERT_EQ(dark.w, 1000);
  EXPECT_GT(RanksShotDarkShare(dark, 70), 0.5) << "the dark theme is mostly dark";
  EXPECT_LT(RanksShotDarkShare(light, 70), 0.08) << "the light theme: dark pixels are text and marks only";
  namespace theme = ui::theme;
  for (const uint32_t c : {theme::kDarkPalette.ruler_background, theme::kDarkPalette.track_background_even,
                           theme::kDarkPalette.heat_neutral}) {
    EXPECT_GT(RanksShotCount(dark, c), 200u) << std::hex << c << " in the dark picture";
    // (a few antialiased pixels may match by chance; a background would be thousands)
    EXPECT_LT(RanksShotCount(light, c), 50u) << std::hex << c << " left in the light picture";
  }
  EXPECT_GT(RanksShotCount(light, theme::kLightPalette.ruler_background), 2000u) << "the timeline's light ruler";
  EXPECT_GT(RanksShotCount(light, theme::kLightPalette.heat_neutral), 200u) << "the heat map's light on-time cells";
  // Text is there and dark on the light ground (antialiased: counted by darkness, not exact colour).
  EXPECT_GT(RanksShotDarkShare(light, 70), 0.002) << "dark text in the light picture";
  // The data colours stay: the main-thread lane and the collective wait.
  EXPECT_GT(RanksShotCount(light, theme::kKindHostOp), 100u);
  EXPECT_GT(RanksShotCount(light, theme::kRankWaitFill), 20u);
}

}  // namespace
}  // namespace stepline::app
