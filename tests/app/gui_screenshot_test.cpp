// The real window path under xvfb-run: `stepline screenshot` opens a hidden
// GLFW window, renders a view into an offscreen framebuffer and writes a PNG.
// For every --view, on a demo and on a shared real trace, we check its size,
// that it is not blank (many colours, much more than the background) and
// that two runs give the same pixels. Skips (with a message) where xvfb-run
// is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/app/screenshot_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline {
namespace {

using testing::DistinctColors;
using testing::HaveXvfb;
using testing::Image;
using testing::ReadPng;
using testing::Screenshot;

// Runs several `stepline` commands under one X server (starting Xvfb is the
// slow part); returns each command's exit code.
std::vector<int> RunBatch(const std::vector<std::string>& commands, const std::filesystem::path& dir) {
  std::string script;
  for (size_t i = 0; i < commands.size(); ++i) {
    script += "'" + std::string(STEPLINE_BINARY) + "' " + commands[i] + " >/dev/null 2>&1; echo $? > '" +
              (dir / ("rc" + std::to_string(i))).string() + "'\n";
  }
  const std::filesystem::path file = dir / "batch.sh";
  std::ofstream(file) << script;
  const std::string cmd = "xvfb-run -a -s '-screen 0 1920x1080x24' sh '" + file.string() + "' > /dev/null 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::vector<int> codes;
  for (size_t i = 0; i < commands.size(); ++i) {
    int rc = -1;
    std::ifstream(dir / ("rc" + std::to_string(i))) >> rc;
    codes.push_back(rc);
  }
  return codes;
}

// Share of pixels that differ from the most common colour (the background).
double ForegroundShare(const Image& img) {
  std::map<uint32_t, size_t> counts;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    ++counts[uint32_t{img.rgba[i]} | uint32_t{img.rgba[i + 1]} << 8 | uint32_t{img.rgba[i + 2]} << 16];
  }
  size_t top = 0;
  for (const auto& [color, n] : counts) top = std::max(top, n);
  const size_t pixels = img.rgba.size() / 4;
  return pixels ? 1.0 - static_cast<double>(top) / static_cast<double>(pixels) : 0.0;
}

class GuiScreenshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the GUI screenshot test needs it (scripts install it)";
    dir_ = std::filesystem::temp_directory_path() / ("stepline-gui-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path dir_;
};

TEST_F(GuiScreenshotTest, DemoTimelineRendersDeterministically) {
  const std::string a = (dir_ / "a.png").string(), b = (dir_ / "b.png").string();
  ASSERT_EQ(Screenshot("--demo input-bound --size 1280x720 --out '" + a + "'"), 0);
  ASSERT_EQ(Screenshot("--demo input-bound --size 1280x720 --out '" + b + "'"), 0);
  const Image ia = ReadPng(a), ib = ReadPng(b);
  ASSERT_EQ(ia.w, 1280);
  ASSERT_EQ(ia.h, 720);
  EXPECT_GT(DistinctColors(ia), 40u) << "the picture looks blank";
  EXPECT_EQ(ia.rgba, ib.rgba) << "same inputs gave different pixels";
}

TEST_F(GuiScreenshotTest, RealKinetoTraceWithGpuRows) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string trace = testing::SharedTracePath("hta/nccl_parser_config_nccl_data.json.gz");
  const std::string out = (dir_ / "kineto.png").string();
  ASSERT_EQ(Screenshot("'" + trace + "' --size 1600x900 --out '" + out + "'"), 0);
  const Image img = ReadPng(out);
  ASSERT_EQ(img.w, 1600);
  ASSERT_EQ(img.h, 900);
  EXPECT_GT(DistinctColors(img), 60u);
}

TEST_F(GuiScreenshotTest, RefusesToOverwriteAndReportsBadInput) {
  const std::string out = (dir_ / "exists.png").string();
  ASSERT_EQ(Screenshot("--demo baseline --size 320x200 --out '" + out + "'"), 0);
  EXPECT_NE(Screenshot("--demo baseline --size 320x200 --out '" + out + "'"), 0);  // no --force
  EXPECT_EQ(Screenshot("--demo baseline --size 320x200 --force --out '" + out + "'"), 0);
  EXPECT_NE(Screenshot("/nonexistent/trace.json --out '" + (dir_ / "x.png").string() + "'"), 0);
  EXPECT_NE(Screenshot("--demo baseline --size 10x10 --out '" + (dir_ / "y.png").string() + "'"), 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "x.png"));
}

// Renders every single-trace view twice (one X server for all) and checks
// each picture: the asked size, not blank, the same pixels both times.
void CheckEveryView(const std::string& input, const std::filesystem::path& dir, size_t min_colors) {
  const std::vector<std::string> views = {"timeline", "overview", "ops", "kernels", "gaps"};
  std::vector<std::string> commands;
  for (const std::string& v : views) {
    for (int run = 0; run < 2; ++run) {
      commands.push_back("screenshot " + input + " --view " + v + " --size 1280x720 --out '" +
                         (dir / (v + std::to_string(run) + ".png")).string() + "'");
    }
  }
  const std::vector<int> codes = RunBatch(commands, dir);
  for (size_t i = 0; i < commands.size(); ++i) EXPECT_EQ(codes[i], 0) << commands[i];
  for (const std::string& v : views) {
    const Image a = ReadPng((dir / (v + "0.png")).string()), b = ReadPng((dir / (v + "1.png")).string());
    ASSERT_EQ(a.w, 1280) << v;
    ASSERT_EQ(a.h, 720) << v;
    EXPECT_GT(DistinctColors(a), min_colors) << v << " looks blank";
    EXPECT_GT(ForegroundShare(a), 0.05) << v << " is mostly background";
    EXPECT_EQ(a.rgba, b.rgba) << v << ": same inputs gave different pixels";
  }
}

TEST_F(GuiScreenshotTest, EveryViewOnADemo) { CheckEveryView("--demo small-batch", dir_, 40); }

// The Memory tab alone on the demo that records memory.
TEST_F(GuiScreenshotTest, MemoryViewOnTheLeakDemo) {
  const std::vector<std::string> commands = {
      "screenshot --demo memory-leak --view memory --size 1280x720 --out '" + (dir_ / "memory0.png").string() + "'",
      "screenshot --demo memory-leak --view memory --size 1280x720 --out '" + (dir_ / "memory1.png").string() + "'"};
  const std::vector<int> codes = RunBatch(commands, dir_);
  for (size_t i = 0; i < commands.size(); ++i) EXPECT_EQ(codes[i], 0) << commands[i];
  const Image a = ReadPng((dir_ / "memory0.png").string()), b = ReadPng((dir_ / "memory1.png").string());
  ASSERT_EQ(a.w, 1280);
  ASSERT_EQ(a.h, 720);
  EXPECT_GT(DistinctColors(a), 20u) << "looks blank";
  EXPECT_GT(ForegroundShare(a), 0.05) << "mostly background";
  EXPECT_EQ(a.rgba, b.rgba) << "same inputs gave different pixels";
}

// Pixels of exactly one colour (the outlier colour, theme::kErrorText).
size_t PixelsOf(const Image& img, uint8_t r, uint8_t g, uint8_t b) {
  size_t n = 0;
  for (size_t i = 0; i + 3 < img.rgba.size(); i += 4) {
    n += img.rgba[i] == r && img.rgba[i + 1] == g && img.rgba[i + 2] == b;
  }
  return n;
}

// The checkpoint demo's overview marks its outlier steps with ticks
// above their bars, and the step-histogram view stacks them in the outlier
// colour; the baseline demo, with no outliers, has neither.
TEST_F(GuiScreenshotTest, StepChartOutlierTicksAndHistogram) {
  const std::vector<std::string> commands = {
      "screenshot --demo checkpoint --view overview --size 1280x720 --out '" + (dir_ / "ticks.png").string() + "'",
      "screenshot --demo checkpoint --view step-histogram --size 1280x720 --out '" + (dir_ / "hist.png").string() +
          "'",
      "screenshot --demo baseline --view overview --size 1280x720 --out '" + (dir_ / "plain.png").string() + "'"};
  const std::vector<int> codes = RunBatch(commands, dir_);
  for (size_t i = 0; i < commands.size(); ++i) EXPECT_EQ(codes[i], 0) << commands[i];
  const Image ticks = ReadPng((dir_ / "ticks.png").string()), hist = ReadPng((dir_ / "hist.png").string());
  const Image plain = ReadPng((dir_ / "plain.png").string());
  ASSERT_EQ(ticks.w, 1280);
  ASSERT_EQ(hist.h, 720);
  EXPECT_GT(DistinctColors(ticks), 40u);
  EXPECT_GT(DistinctColors(hist), 40u);
  EXPECT_NE(ticks.rgba, hist.rgba) << "the histogram view looks like the bar view";
  EXPECT_GT(PixelsOf(ticks, 255, 120, 110), 40u) << "no outlier ticks";
  EXPECT_GT(PixelsOf(hist, 255, 120, 110), 400u) << "no outlier bin";
  EXPECT_LT(PixelsOf(plain, 255, 120, 110), 5u) << "outlier colour without outliers";
  if (const char* keep = std::getenv("STEPLINE_KEEP_SCREENSHOTS")) {
    std::filesystem::copy_file(dir_ / "ticks.png", std::filesystem::path(keep) / "step-chart-outliers.png",
                               std::filesystem::copy_options::overwrite_existing);
    std::filesystem::copy_file(dir_ / "hist.png", std::filesystem::path(keep) / "step-chart-histogram.png",
                               std::filesystem::copy_options::overwrite_existing);
  }
}

TEST_F(GuiScreenshotTest, EveryViewOnARealTrace) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  CheckEveryView("'" + testing::SharedTracePath("hta/nccl_parser_config_nccl_data.json.gz") + "'", dir_, 40);
}

TEST_F(GuiScreenshotTest, CompareViewOfTwoDemoRuns) {
  const std::string a = (dir_ / "baseline.json").string(), b = (dir_ / "input-bound.json").string();
  const std::string out0 = (dir_ / "cmp0.png").string(), out1 = (dir_ / "cmp1.png").string();
  const std::vector<int> codes = RunBatch(
      {"demo baseline --out '" + a + "'", "demo input-bound --out '" + b + "'",
       "screenshot '" + a + "' '" + b + "' --view compare --size 1600x900 --out '" + out0 + "'",
       "screenshot '" + a + "' '" + b + "' --view compare --size 1600x900 --out '" + out1 + "'",
       "screenshot '" + a + "' --view compare --out '" + (dir_ / "one.png").string() + "'",
       "screenshot '" + a + "' '" + b + "' --out '" + (dir_ / "two.png").string() + "'"},
      dir_);
  ASSERT_EQ(codes[0], 0);
  ASSERT_EQ(codes[1], 0);
  EXPECT_EQ(codes[2], 0);
  EXPECT_EQ(codes[3], 0);
  EXPECT_EQ(codes[4], 1) << "--view compare with one file must fail";
  EXPECT_EQ(codes[5], 1) << "two files without --view compare must fail";
  const Image i0 = ReadPng(out0), i1 = ReadPng(out1);
  ASSERT_EQ(i0.w, 1600);
  ASSERT_EQ(i0.h, 900);
  EXPECT_GT(DistinctColors(i0), 40u);
  EXPECT_GT(ForegroundShare(i0), 0.05);
  EXPECT_EQ(i0.rgba, i1.rgba);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "one.png"));
}

TEST_F(GuiScreenshotTest, CompareViewOfTwoRealTraces) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string a = testing::SharedTracePath("hta/critical_path_simple_add_benchmark_result_493459_1694039959_trace.json.gz");
  const std::string b = testing::SharedTracePath("hta/critical_path_alexnet_benchmark_result_2869224_1695835535_trace.json.gz");
  const std::string out0 = (dir_ / "c0.png").string(), out1 = (dir_ / "c1.png").string();
  const std::vector<int> codes =
      RunBatch({"screenshot '" + a + "' '" + b + "' --view compare --size 1280x720 --out '" + out0 + "'",
                "screenshot '" + a + "' '" + b + "' --view compare --size 1280x720 --out '" + out1 + "'"},
               dir_);
  EXPECT_EQ(codes[0], 0);
  EXPECT_EQ(codes[1], 0);
  const Image i0 = ReadPng(out0), i1 = ReadPng(out1);
  ASSERT_EQ(i0.w, 1280);
  ASSERT_EQ(i0.h, 720);
  EXPECT_GT(DistinctColors(i0), 40u);
  EXPECT_EQ(i0.rgba, i1.rgba);
}

TEST_F(GuiScreenshotTest, StepCaptionScaleAndBadArguments) {
  const std::string step = (dir_ / "step.png").string(), caption = (dir_ / "caption.png").string();
  const std::string scaled = (dir_ / "scaled.png").string(), plain = (dir_ / "plain.png").string();
  const std::string demo_file = (dir_ / "demo.json").string();
  const std::vector<int> codes = RunBatch(
      {"screenshot --demo input-bound --step 3 --size 1280x720 --out '" + step + "'",
       "screenshot --demo input-bound --step 3 --caption --size 1280x720 --out '" + caption + "'",
       "screenshot --demo input-bound --scale 2 --size 1280x720 --out '" + scaled + "'",
       "screenshot --demo input-bound --size 1280x720 --out '" + plain + "'",
       "screenshot --demo input-bound --step 99999 --out '" + (dir_ / "nostep.png").string() + "'",
       "screenshot --demo input-bound --view sideways --out '" + (dir_ / "noview.png").string() + "'",
       "demo baseline --out '" + demo_file + "'",
       "screenshot '" + demo_file + "' --force --out '" + demo_file + "'"},
      dir_);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(codes[i], 0) << i;
  EXPECT_EQ(codes[4], 1) << "an unknown step must fail";
  EXPECT_EQ(codes[5], 1) << "an unknown view must fail";
  ASSERT_EQ(codes[6], 0);
  EXPECT_EQ(codes[7], 1) << "wrote the picture over its input trace";
  EXPECT_EQ(std::system(("grep -q traceEvents '" + demo_file + "'").c_str()), 0) << "the input was changed";
  const Image s = ReadPng(step), c = ReadPng(caption), x = ReadPng(scaled), p = ReadPng(plain);
  ASSERT_EQ(x.w, 1280);
  ASSERT_EQ(x.h, 720);
  EXPECT_NE(s.rgba, p.rgba) << "--step did not change the view";
  EXPECT_NE(s.rgba, c.rgba) << "--caption drew nothing";
  EXPECT_NE(x.rgba, p.rgba) << "--scale 2 did not enlarge the text";
  EXPECT_FALSE(std::filesystem::exists(dir_ / "nostep.png"));
}

}  // namespace
}  // namespace stepline
