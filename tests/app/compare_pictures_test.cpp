// The compare view's pictures through the viewer's real picture path: in a
// window, frame by frame as cmd_view runs it, "Save compare view as PNG" is
// cropped to the view with the compare caption strip stacked under it, and
// written under a timestamped name. Needs a display: without one the test
// re-runs itself under xvfb-run (skipped where that is not installed). Set
// STEPLINE_KEEP_PNG_DIR to keep the picture to look at.
#include <gtest/gtest.h>
#include <imgui.h>
#include <stb/stb_image.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "app/gui/gl_window.h"
#include "app/gui/picture_saver.h"
#include "app/gui/viewer_frame.h"
#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/app/screenshot_test_helpers.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

std::shared_ptr<const ui::TimelineData> PictureDemo(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = 4;
  auto r = demo::GenerateDemoTrace(options);
  if (!r.ok()) return nullptr;
  return std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(r).value()));
}

std::vector<fs::path> PngsIn(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".png") out.push_back(e.path());
  }
  return out;
}

TEST(ComparePicturesTest, WholeCompareViewWithItsCaption) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-compare-pictures-" + std::to_string(::getpid()));
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "no display and no xvfb-run";
    fs::create_directories(dir);
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string log = (dir / "log.txt").string();
    const std::string cmd = std::string(testing::kUnsharded) + testing::kXvfbRun + "'" + self +
                            "' --gtest_filter=ComparePicturesTest.* > '" + log + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "the run under xvfb failed; see its log: " << log;
    fs::remove_all(dir);
    return;
  }
  fs::create_directories(dir);
  GlWindow window;
  GlWindow::Options options;
  options.width = 1200;
  options.height = 700;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  ui::DrawListQuadRenderer renderer;
  auto a = PictureDemo("input-bound"), b = PictureDemo("baseline");
  ASSERT_TRUE(a && b);
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.ShowCompare(a, "ib.json.gz", b, "bl.json.gz");
  session.state().pictures.show_caption = true;
  session.state().pictures.export_folder = dir.string();
  PictureSaver pictures;
  const auto frame = [&] {
    session.SetNotice("");
    RunViewerFrame(window, session, pictures, nullptr, &renderer);
    return session.notice();
  };
  for (int f = 0; f < 3; ++f) frame();
  ASSERT_TRUE(session.caption_strip().has_value()) << "the compare view's strip reaches the saver";
  ASSERT_TRUE(session.compare_view().whole_view().has_value());
  const ui::PanelShot whole = *session.compare_view().whole_view();
  const ui::PanelShot strip = *session.caption_strip();
  EXPECT_LE(whole.y1, strip.y0 + 1);
  pictures.RequestPanel(whole);
  std::string notice;
  for (int f = 0; f < 6 && notice.empty(); ++f) notice = frame();
  const std::vector<fs::path> files = PngsIn(dir);
  ASSERT_EQ(files.size(), 1u) << notice;
  EXPECT_NE(files[0].filename().string().find("stepline-compare-"), std::string::npos) << files[0];
  EXPECT_NE(notice.find(files[0].string()), std::string::npos) << notice;
  int w = 0, h = 0, channels = 0;
  ASSERT_TRUE(stbi_info(files[0].string().c_str(), &w, &h, &channels));
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  EXPECT_EQ(w, static_cast<int>((whole.x1 - whole.x0) * scale + 0.5f));
  EXPECT_NEAR(h, (whole.y1 - whole.y0 + strip.y1 - strip.y0) * scale, 2.0) << "the view, then the caption strip";
  if (const char* keep = std::getenv("STEPLINE_KEEP_PNG_DIR")) {
    std::error_code ec;
    fs::copy_file(files[0], fs::path(keep) / "compare-whole.png", fs::copy_options::overwrite_existing, ec);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stepline::app
