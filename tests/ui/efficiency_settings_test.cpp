// The Efficiency settings window (ui/efficiency_settings.h): the fields'
// checks, and that the overview's MFU tile, View > Efficiency settings'
// request and Apply reach the app as ViewRequests::efficiency.
#include "ui/efficiency_settings.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>

#include "demo/demo_efficiency.h"
#include "loaders/load.h"
#include "tests/support/headless_imgui.h"
#include "ui/main_view.h"

namespace stepline::ui {
namespace {

TEST(EfficiencySettingsTest, FieldsBecomeTheCommandLinesOptions) {
  std::string error;
  const auto o = EfficiencyOptionsOfFields(400, 1, 32, &error);
  ASSERT_TRUE(o) << error;
  EXPECT_DOUBLE_EQ(o->peak_tflops, 400);
  EXPECT_EQ(o->peak_dtype, "bf16");  // kPeakDtypes[0]
  EXPECT_EQ(o->batch_size, 32);
  const auto defaults = EfficiencyOptionsOfFields(0, 0, 0, &error);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(*defaults, analysis::EfficiencyOptions{});  // the table's peak, the trace's dtype, no batch
  EXPECT_FALSE(EfficiencyOptionsOfFields(-1, 0, 0, &error));
  EXPECT_NE(error.find("peak"), std::string::npos);
  EXPECT_FALSE(EfficiencyOptionsOfFields(0, 0, -4, &error));
  EXPECT_NE(error.find("batch"), std::string::npos);
  EXPECT_FALSE(EfficiencyOptionsOfFields(0, 99, 0, &error));
}

class EfficiencySettingsViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
    ASSERT_TRUE(loaded.ok());
    analysis::EfficiencyOptions o;
    o.batch_size = 32;
    o.peak_dtype = "fp16";
    state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()), o);
  }
  ViewRequests Frame() {
    ImGui::NewFrame();
    ViewRequests req = view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
    return req;
  }
  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 1000)};
  ViewState state_;
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

// A tile's request opens the window with the options the analysis used;
// Apply hands them back as the view's request, and the window closes.
TEST_F(EfficiencySettingsViewTest, RequestOpensTheWindowAndApplyHandsBackTheOptions) {
  Frame();
  EXPECT_EQ(ImGui::FindWindowByName("Efficiency settings"), nullptr);
  state_.requests.efficiency_settings = true;
  Frame();
  Frame();  // auto-resized on its second frame
  ImGuiWindow* window = ImGui::FindWindowByName("Efficiency settings");
  ASSERT_NE(window, nullptr);
  EXPECT_TRUE(window->Active);
  EXPECT_FALSE(state_.requests.efficiency_settings);  // taken
  // Find Apply by hovering down the window's left edge (no clicks: the
  // combo would open), then click it: the fields still hold what the
  // analysis used, so that is what comes back.
  const ImGuiID apply = window->GetID("Apply");
  ImGuiIO& io = ImGui::GetIO();
  const float x = window->Pos.x + window->WindowPadding.x + 6;
  ImVec2 at(-1, -1);
  for (float y = window->Pos.y; y < window->Pos.y + window->Size.y && at.x < 0; y += 2) {
    io.MousePos = ImVec2(x, y);
    Frame();
    if (ImGui::GetCurrentContext()->HoveredId == apply) at = io.MousePos;
  }
  ASSERT_GE(at.x, 0) << "no Apply button under the window's left edge";
  io.MouseDown[0] = true;
  EXPECT_FALSE(Frame().efficiency);
  io.MouseDown[0] = false;
  const ViewRequests req = Frame();
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  ASSERT_TRUE(req.efficiency);
  EXPECT_EQ(*req.efficiency, state_.data->efficiency);
  Frame();
  ImGuiWindow* after = ImGui::FindWindowByName("Efficiency settings");
  EXPECT_TRUE(after == nullptr || !after->Active) << "Apply closes the window";
}

}  // namespace
}  // namespace stepline::ui
