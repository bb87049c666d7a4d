// The viewer's picture path in a real window, frame by frame as the viewer
// loop runs it: a panel's "Save as PNG" is taken a few frames later from the
// back buffer, cropped to the panel with the caption strip under it, and the
// whole window likewise. Needs a display: without one the test re-runs
// itself under xvfb-run (skipped where that is not installed).
#include "app/gui/picture_saver.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <stb/stb_image.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "app/gui/gl_window.h"
#include "app/gui/viewer_frame.h"
#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/app/screenshot_test_helpers.h"

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

struct Png {
  int w = 0, h = 0;
};

Png ReadSize(const fs::path& path) {
  Png p;
  int channels = 0;
  if (!stbi_info(path.string().c_str(), &p.w, &p.h, &channels)) return Png{};
  return p;
}

std::vector<fs::path> SavedPngsIn(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".png") out.push_back(e.path());
  }
  return out;
}

class PictureSaverWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stepline-pictures-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // One viewer frame as cmd_view runs it, pictures saved to dir_ (the
  // folder the View menu sets); returns the notice, if any.
  std::string Frame(GlWindow& window, ViewerSession& session, PictureSaver& pictures, ui::QuadRenderer* renderer) {
    session.state().pictures.export_folder = dir_.string();
    session.SetNotice("");
    RunViewerFrame(window, session, pictures, nullptr, renderer);
    return session.notice();
  }

  fs::path dir_;
};

TEST_F(PictureSaverWindowTest, SavesAPanelWithItsCaptionAndTheWholeWindow) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) GTEST_SKIP() << "no display and no xvfb-run";
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::string cmd = std::string(testing::kUnsharded) + testing::kXvfbRun + "'" + self +
                            "' --gtest_filter=PictureSaverWindowTest.* > '" + (dir_ / "log.txt").string() + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << "the run under xvfb failed; see its log: " << (dir_ / "log.txt").string();
    return;
  }
  GlWindow window;
  GlWindow::Options options;
  options.width = 900;
  options.height = 600;
  options.font_scale = 1.f;
  std::string error;
  ASSERT_TRUE(window.Create(options, &error)) << error;
  ui::DrawListQuadRenderer renderer;
  demo::DemoOptions demo;
  demo.scenario = "baseline";
  demo.steps = 4;
  auto trace = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(trace.ok());
  ViewerSession session{RecentFiles("/dev/null/never")};
  session.Show(std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(trace).value())),
               "demo");
  session.state().pictures.show_caption = true;
  PictureSaver pictures;
  for (int f = 0; f < 3; ++f) Frame(window, session, pictures, &renderer);
  ASSERT_TRUE(session.view().caption_strip().has_value());
  const float caption_h = session.view().caption_strip()->y1 - session.view().caption_strip()->y0;
  pictures.RequestPanel(ui::PanelShot{"timeline", 100, 40, 400, 240});
  std::string notice;
  for (int f = 0; f < 6 && notice.empty(); ++f) notice = Frame(window, session, pictures, &renderer);
  ASSERT_FALSE(pictures.pending());
  std::vector<fs::path> files = SavedPngsIn(dir_);
  ASSERT_EQ(files.size(), 1u) << notice;
  EXPECT_NE(files[0].filename().string().find("stepline-timeline-"), std::string::npos);
  EXPECT_NE(notice.find(files[0].string()), std::string::npos) << notice;
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  const Png panel = ReadSize(files[0]);
  EXPECT_EQ(panel.w, static_cast<int>(300 * scale));
  EXPECT_EQ(panel.h, static_cast<int>((200 + caption_h) * scale + 0.5f)) << "panel, then the caption strip";
  fs::remove(files[0]);

  pictures.RequestWindow();
  notice.clear();
  for (int f = 0; f < 6 && notice.empty(); ++f) notice = Frame(window, session, pictures, &renderer);
  files = SavedPngsIn(dir_);
  ASSERT_EQ(files.size(), 1u) << notice;
  const Png whole = ReadSize(files[0]);
  EXPECT_EQ(whole.w, static_cast<int>(ImGui::GetIO().DisplaySize.x * scale));
  EXPECT_EQ(whole.h, static_cast<int>(ImGui::GetIO().DisplaySize.y * scale));
}

TEST(PictureSaverTest, ExportsGoToTheFolderOrSayWhyNot) {
  const fs::path dir = fs::temp_directory_path() / ("stepline-exports-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string notice = SaveExport(ui::ExportRequest{"ops", "csv", "a,b\n1,2\n"}, dir.string());
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u) << notice;
  EXPECT_EQ(files[0].extension(), ".csv");
  EXPECT_NE(notice.find(files[0].string()), std::string::npos) << notice;
  const std::string missing = SaveExport(ui::ExportRequest{"ops", "csv", "x"}, (dir / "nope").string());
  EXPECT_NE(missing.find("does not exist"), std::string::npos) << missing;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace stepline::app
