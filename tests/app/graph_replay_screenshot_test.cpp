// The timeline marks each CUDA graph replay's extent on its stream: the
// planted graph trace (demo/demo_graphs.h) written as Kineto JSON, drawn by
// `stepline screenshot` under xvfb-run. The replay brackets are drawn in the
// `graph` cause colour, so the picture must hold those pixels. Skips where xvfb-run is not installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "demo/demo_graphs.h"
#include "export/chrome_json_writer.h"
#include "tests/app/screenshot_test_helpers.h"

namespace stepline {
namespace {

TEST(GraphReplayScreenshotTest, TimelineMarksReplayExtents) {
  if (!testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the screenshot test needs it (scripts install it)";
  const auto dir = std::filesystem::temp_directory_path() / ("stepline-graph-shot-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string trace = (dir / "graphs.json").string();
  ASSERT_TRUE(exports::WriteChromeJsonFile(demo::PlantedGraphTrace(), trace).ok());
  const std::string png = (dir / "graph_replays_timeline.png").string();
  ASSERT_EQ(testing::Screenshot("'" + trace + "' --size 1280x720 --range 0:2 --out '" + png + "'"), 0);
  const testing::Image img = testing::ReadPng(png);
  ASSERT_EQ(img.w, 1280);
  // The bracket's colour (theme::kCauseGraph) is on screen.
  size_t bracket = 0;
  for (int y = 0; y < img.h; ++y) {
    for (int x = 0; x < img.w; ++x) bracket += testing::Pixel(img, x, y) == (161u | 110u << 8 | 88u << 16) ? 1 : 0;
  }
  EXPECT_GT(bracket, 200u) << "no replay bracket in " << png;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stepline
