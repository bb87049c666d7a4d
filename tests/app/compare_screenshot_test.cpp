// The compare view through the real window path under xvfb-run: `stepline
// screenshot A B --view compare` renders two demo runs into a PNG of the
// asked size. We check the size, that it is not blank, that it is not the
// single-trace picture, that both run colours appear (the A / B labels and
// title strips), that --step moves the alignment, and that --caption adds
// the caption strip along the bottom, the same pixels on every run. Skips
// without xvfb-run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/app/screenshot_test_helpers.h"

namespace stepline {
namespace {

using testing::Colors;
using testing::HaveXvfb;
using testing::Image;
using testing::Pixel;
using testing::ReadPng;
using testing::Screenshot;

int RunStepline(const std::string& args) {
  return std::system(("'" + std::string(STEPLINE_BINARY) + "' " + args + " > /dev/null 2>&1").c_str());
}

class CompareScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the compare screenshot test needs it";
    dir_ = std::filesystem::temp_directory_path() / ("stepline-compare-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    a_ = (dir_ / "input_bound.json.gz").string();
    b_ = (dir_ / "baseline.json.gz").string();
    ASSERT_EQ(RunStepline("demo input-bound --out '" + a_ + "'"), 0);
    ASSERT_EQ(RunStepline("demo baseline --out '" + b_ + "'"), 0);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::string Pair() const { return "'" + a_ + "' '" + b_ + "' --view compare --size 1280x720"; }
  std::filesystem::path dir_;
  std::string a_, b_;
};

TEST_F(CompareScreenshotTest, RendersBothRunsAtTheAskedSize) {
  const std::string out = (dir_ / "compare.png").string();
  ASSERT_EQ(Screenshot(Pair() + " --out '" + out + "'"), 0);
  const Image img = ReadPng(out);
  ASSERT_EQ(img.w, 1280);
  ASSERT_EQ(img.h, 720);
  const std::set<uint32_t> colors = Colors(img);
  EXPECT_GT(colors.size(), 60u) << "the picture looks blank";
  // The run colours of ui/compare/compare_theme.h (kRunA, kRunB) label the sides.
  EXPECT_TRUE(colors.count(100u | 165u << 8 | 255u << 16)) << "no A-coloured pixel";
  EXPECT_TRUE(colors.count(255u | 171u << 8 | 64u << 16)) << "no B-coloured pixel";
  // Not the single-trace view of A.
  const std::string single = (dir_ / "single.png").string();
  ASSERT_EQ(Screenshot("'" + a_ + "' --size 1280x720 --out '" + single + "'"), 0);
  EXPECT_NE(ReadPng(single).rgba, img.rgba);
}

TEST_F(CompareScreenshotTest, StepMovesTheAlignment) {
  const std::string first = (dir_ / "first.png").string(), third = (dir_ / "third.png").string();
  ASSERT_EQ(Screenshot(Pair() + " --out '" + first + "'"), 0);
  ASSERT_EQ(Screenshot(Pair() + " --step 3 --out '" + third + "'"), 0);
  const Image a = ReadPng(first), b = ReadPng(third);
  ASSERT_EQ(a.w, 1280);
  ASSERT_EQ(b.w, 1280);
  EXPECT_NE(a.rgba, b.rgba);
}

// The caption strip's background (ui/theme.h kCaptionBackground).
constexpr uint32_t kCaptionGrey = 40u | 43u << 8 | 50u << 16;

TEST_F(CompareScreenshotTest, CaptionStripAlongTheBottomSamePixelsEveryRun) {
  const std::string one = (dir_ / "caption1.png").string(), two = (dir_ / "caption2.png").string();
  const std::string plain = (dir_ / "plain.png").string();
  ASSERT_EQ(Screenshot(Pair() + " --caption --out '" + one + "'"), 0);
  ASSERT_EQ(Screenshot(Pair() + " --caption --out '" + two + "'"), 0);
  ASSERT_EQ(Screenshot(Pair() + " --out '" + plain + "'"), 0);
  const Image a = ReadPng(one), b = ReadPng(two), p = ReadPng(plain);
  ASSERT_EQ(a.w, 1280);
  ASSERT_EQ(a.h, 720);
  EXPECT_GT(Colors(a).size(), 60u) << "the picture looks blank";
  EXPECT_EQ(a.rgba, b.rgba) << "two runs with the same inputs differ";
  ASSERT_EQ(p.w, 1280);
  EXPECT_NE(a.rgba, p.rgba);
  // A few rows above the bottom edge (under the window padding): the strip's
  // grey from the left edge to the right, with text in it; not without --caption.
  int strip_rows = 0, plain_rows = 0;
  for (int y = a.h - 40; y < a.h; ++y) {
    strip_rows += Pixel(a, 12, y) == kCaptionGrey && Pixel(a, a.w - 12, y) == kCaptionGrey;
    plain_rows += Pixel(p, 12, y) == kCaptionGrey && Pixel(p, p.w - 12, y) == kCaptionGrey;
  }
  EXPECT_GT(strip_rows, 10) << "no caption strip along the bottom";
  EXPECT_EQ(plain_rows, 0);
  std::set<uint32_t> strip_colors;
  for (int x = 0; x < a.w / 2; ++x) strip_colors.insert(Pixel(a, x, a.h - 16));
  EXPECT_GT(strip_colors.size(), 3u) << "the strip has no text";
}

}  // namespace
}  // namespace stepline
