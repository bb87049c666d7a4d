// The session forwards what the compare view's menus ask for (a panel's
// picture, a table to save) to the app as it does for the single view, and
// hands the view the caption preference; driven headless with the mouse
// (ImGui without a backend, as tests/ui/compare_menu_test.cpp does).
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/gui/viewer_session.h"
#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"

namespace stepline::app {
namespace {

std::shared_ptr<const ui::TimelineData> DemoData(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = 4;
  auto r = demo::GenerateDemoTrace(options);
  if (!r.ok()) return nullptr;
  return std::make_shared<const ui::TimelineData>(std::make_shared<const Trace>(std::move(r).value()));
}

class CompareFrameRequestsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = DemoData("input-bound"), b = DemoData("baseline");
    ASSERT_TRUE(a && b);
    session_.ShowCompare(a, "ib.json.gz", b, "bl.json.gz");
    for (int i = 0; i < 3; ++i) Frame();
  }

  ViewerSession::FrameResult Frame() {
    ImGui::NewFrame();
    ViewerSession::FrameResult r = session_.Frame({}, &renderer_);
    ImGui::Render();
    return r;
  }
  void Collect(const ViewerSession::FrameResult& r) {
    if (r.save_panel) shots_.push_back(*r.save_panel);
    exports_.insert(exports_.end(), r.exports.begin(), r.exports.end());
  }
  void Click(ImVec2 at, int button) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Collect(Frame());
    io.MouseDown[button] = true;
    Collect(Frame());
    io.MouseDown[button] = false;
    Collect(Frame());
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  ViewerSession session_{RecentFiles("/dev/null/never")};
  ui::DrawListQuadRenderer renderer_;
  std::vector<ui::PanelShot> shots_;
  std::vector<ui::ExportRequest> exports_;
};

TEST_F(CompareFrameRequestsTest, OpsDiffMenuReachesTheApp) {
  ASSERT_TRUE(session_.comparing());
  const ImVec2 at(1100, 780);  // the ops diff table, bottom right
  for (float dy = 4; dy < 130; dy += 5) {
    Click(at, 1);
    Click(ImVec2(at.x + 40, at.y + dy), 0);
    Frame();
  }
  bool ops_shot = false;
  for (const ui::PanelShot& s : shots_) ops_shot |= s.stem == "ops-diff" && s.x0 < at.x && at.x < s.x1;
  EXPECT_TRUE(ops_shot);
  ASSERT_FALSE(exports_.empty());
  EXPECT_EQ(exports_.front().stem, "ops-diff");
  EXPECT_EQ(exports_.front().extension, "csv");
  EXPECT_EQ(exports_.front().text.rfind("in,kind,name,a_count,", 0), 0u);
}

TEST_F(CompareFrameRequestsTest, CaptionFollowsTheSessionPreference) {
  Frame();
  EXPECT_FALSE(session_.caption_strip().has_value());
  session_.state().pictures.show_caption = true;  // View > Caption under pictures, or `screenshot --caption`
  Frame();
  ASSERT_TRUE(session_.caption_strip().has_value());
  EXPECT_GT(session_.caption_strip()->y0, 800.f);
}

}  // namespace
}  // namespace stepline::app
