// File > Compare with... in the single-trace view, clicked headless with the
// mouse: it asks the app for the file browser (the pick becomes B), and only
// when a trace is on screen to be A.
#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/main_view.h"

namespace stepline::ui {
namespace {

using stepline::testing::Us;

class CompareWithMenuTest : public ::testing::Test {
 protected:
  ViewRequests Frame() {
    ImGui::NewFrame();
    ViewRequests r = view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
    return r;
  }
  ViewRequests Click(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    ViewRequests r = Frame();
    io.MouseDown[0] = true;
    ViewRequests pressed = Frame();
    io.MouseDown[0] = false;
    ViewRequests released = Frame();
    released.compare_dialog |= pressed.compare_dialog || r.compare_dialog;
    released.open_dialog |= pressed.open_dialog || r.open_dialog;
    return released;
  }
  // Opens the File menu and clicks each position down it; whether any click
  // asked for the compare browser, and whether one asked for the open one.
  std::pair<bool, bool> SweepFileMenu() {
    bool compare = false, open = false;
    for (float y = 22; y < 120; y += 4) {
      Click(ImVec2(16, 8));  // "File" in the menu bar
      const ViewRequests r = Click(ImVec2(60, y));
      compare |= r.compare_dialog;
      open |= r.open_dialog;
      Frame();
    }
    return {compare, open};
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1280, 720)};  // first: outlives the views
  ViewState state_;
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

TEST_F(CompareWithMenuTest, AsksForTheBrowserWhenATraceIsOnScreen) {
  stepline::testing::SyntheticTrace t;
  t.Thread("main").Slice("ProfilerStep#1", Us(0), Us(100));
  state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
  state_.FitAll();
  for (int i = 0; i < 2; ++i) Frame();
  const auto [compare, open] = SweepFileMenu();
  EXPECT_TRUE(compare);
  EXPECT_TRUE(open) << "the sweep reached File > Open too";
}

TEST_F(CompareWithMenuTest, DisabledWithNothingToCompare) {
  for (int i = 0; i < 2; ++i) Frame();
  const auto [compare, open] = SweepFileMenu();
  EXPECT_FALSE(compare);
  EXPECT_TRUE(open) << "the sweep reached the menu";
}

}  // namespace
}  // namespace stepline::ui
