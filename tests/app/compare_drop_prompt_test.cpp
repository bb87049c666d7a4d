// The "Compare with the current trace?" question, and the compare view with
// a failed replacement and the "which run?" question, rendered through the real GL path: the outer test re-runs
// this executable under xvfb-run (the inner run opens a hidden window, drops
// a file on the session and writes PNGs), then checks the pictures. The
// PNGs are kept when STEPLINE_KEEP_PNG_DIR names a folder, to look at them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/gl_quad_renderer.h"
#include "app/gui/gl_window.h"
#include "app/gui/headless_frame.h"
#include "app/gui/offscreen.h"
#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/app/screenshot_test_helpers.h"

namespace stepline::app {
namespace {

constexpr const char* kInnerEnv = "STEPLINE_PROMPT_TEST_DIR";
constexpr int kW = 1280, kH = 720;

std::shared_ptr<const ui::TimelineData> Demo(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  auto r = demo::GenerateDemoTrace(options);
  if (!r.ok()) return nullptr;
  return std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(r).value()));
}

// Runs inside xvfb-run: draws the session in two states into PNGs.
TEST(CompareDropPromptTest, Inner) {
  const char* dir = std::getenv(kInnerEnv);
  if (dir == nullptr) GTEST_SKIP() << "runs only inside the xvfb-run started by CompareDropPromptTest.Pictures";
  GlWindow window;
  GlWindow::Options options;
  options.width = kW;
  options.height = kH;
  options.visible = false;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  GlQuadRenderer renderer;
  ASSERT_TRUE(renderer.Init(&error)) << error;
  OffscreenTarget target;
  ASSERT_TRUE(target.Create(kW, kH, &error)) << error;
  exports::SafeWriteOptions overwrite;
  overwrite.overwrite = true;
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.Show(Demo("input-bound"), "input_bound.json.gz");
  // One file dropped on an open trace: the question.
  session.HandleDrops({"/somewhere/baseline.json.gz"});
  ASSERT_EQ(session.drop_question(), ui::DropQuestion::kCompareWithCurrent);
  auto frame = [&] {
    renderer.BeginFrame();
    session.Frame({}, &renderer);
  };
  RenderHeadlessFrames(kW, kH, 4, frame, target);
  ASSERT_TRUE(WritePng(std::string(dir) + "/question.png", kW, kH, target.ReadRgba(), overwrite, &error)) << error;
  // Compare view after a failed replacement (an empty file): the error
  // names the side, the comparison stays; then a drop asks which side.
  session.AnswerDrop(ui::DropChoice::kCancel);
  session.ShowCompare(Demo("input-bound"), "input_bound.json.gz", Demo("baseline"), "baseline.json.gz");
  const std::string empty = std::string(dir) + "/empty.json";
  { std::ofstream touch(empty); }
  session.ReplaceSide(1, empty);
  for (int i = 0; i < 6000 && session.loading(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  session.HandleDrops({"/somewhere/other.json.gz"});
  RenderHeadlessFrames(kW, kH, 4, frame, target);
  ASSERT_TRUE(WritePng(std::string(dir) + "/replace.png", kW, kH, target.ReadRgba(), overwrite, &error)) << error;
  EXPECT_TRUE(session.comparing());
  EXPECT_EQ(session.error().rfind("B: ", 0), 0u) << session.error();
  session.AnswerDrop(ui::DropChoice::kCancel);
  // A selected ops-diff row: its kernel highlighted in both timelines.
  session.SetNotice("");
  const auto& ops = session.compare_view().comparison().ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind == analysis::OpKind::kKernel && ops[i].presence == analysis::Presence::kBoth) {
      session.compare_view().SelectOp(static_cast<int>(i));
      break;
    }
  }
  EXPECT_FALSE(session.compare_view().state(0).links.op_occurrences.empty());
  EXPECT_FALSE(session.compare_view().state(1).links.op_occurrences.empty());
  RenderHeadlessFrames(kW, kH, 4, frame, target);
  ASSERT_TRUE(WritePng(std::string(dir) + "/highlight.png", kW, kH, target.ReadRgba(), overwrite, &error)) << error;
  session.CloseCompare();
}

TEST(CompareDropPromptTest, Pictures) {
  if (std::getenv(kInnerEnv) != nullptr) GTEST_SKIP() << "the inner run";
  if (!testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed";
  const char* keep = std::getenv("STEPLINE_KEEP_PNG_DIR");
  const std::filesystem::path dir =
      keep ? std::filesystem::path(keep)
           : std::filesystem::temp_directory_path() / ("stepline-prompt-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string cmd = std::string(testing::kUnsharded) + kInnerEnv + "='" + dir.string() + "' xvfb-run -a -s '-screen 0 1920x1080x24' '" +
                          self + "' --gtest_filter=CompareDropPromptTest.Inner > '" + (dir / "inner.log").string() +
                          "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << "inner run failed; see " << (dir / "inner.log");
  for (const char* name : {"question.png", "replace.png", "highlight.png"}) {
    const testing::Image img = testing::ReadPng((dir / name).string());
    EXPECT_GT(testing::DistinctColors(img), 60u) << name;
    EXPECT_EQ(img.w, kW) << name;
    EXPECT_EQ(img.h, kH) << name;
  }
  if (!keep) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace stepline::app
