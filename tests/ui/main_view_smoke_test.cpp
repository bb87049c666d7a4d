// The whole main view drawn headless (ImGui with no platform or renderer
// backend, as imgui's example_null does) on a synthetic trace, driven with
// simulated mouse and keys: zoom, hover, click-select, fit, pan.
#include "ui/main_view.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <memory>

#include "tests/support/headless_imgui.h"

namespace stepline::ui {
namespace {

std::shared_ptr<const TimelineData> SmokeData() {
  auto trace = std::make_shared<Trace>();
  StringPool& s = trace->mutable_strings();
  const ProcessId host = trace->mutable_processes().Append({100, s.Intern("python"), 0, -1});
  const ProcessId gpu = trace->mutable_processes().Append({0, s.Intern("GPU 0"), 1, 0});
  const TrackId main = trace->mutable_tracks().Append({TrackKind::kHostThread, host, 1, s.Intern("main"), 0, -1, {}});
  const TrackId stream = trace->mutable_tracks().Append({TrackKind::kGpuStream, gpu, 7, s.Intern("stream 7"), 0, 0, {}});
  SliceTable& t = trace->mutable_slices();
  for (int step = 0; step < 4; ++step) {
    const TimeNs base = step * 1'000'000;
    t.Append({main, base, 900'000, s.Intern("ProfilerStep#" + std::to_string(step)), {}, {}, GpuKind::kNone});
    for (int k = 0; k < 20; ++k) {
      const TimeNs at = base + 10'000 + k * 40'000;
      const SliceId launch = t.Append({main, at, 5'000, s.Intern("cudaLaunchKernel"), {}, {}, GpuKind::kNone});
      const SliceId kernel = t.Append({stream, at + 8'000, 30'000, s.Intern("gemm"), {}, {}, GpuKind::kKernel});
      FlowTable::Pending f;
      f.from = FlowEndpoint::OfSlice(launch);
      f.to = FlowEndpoint::OfSlice(kernel);
      f.kind = FlowKind::kLaunch;
      trace->mutable_flows().AddPending(f);
    }
  }
  trace->Finalize();
  return std::make_shared<const TimelineData>(std::move(trace));
}

class MainViewSmokeTest : public ::testing::Test {
 protected:
  void SetUp() override { state_.data = SmokeData(); }

  ViewRequests Frame() {
    ImGui::NewFrame();
    ViewRequests r = view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel = 0.f;
    for (bool& k : io.KeysDown) k = false;
    return r;
  }
  // Moves the mouse down the middle of the timeline until a slice is under it.
  bool HoverSomeSlice() {
    for (float x : {700.f, 900.f, 1100.f}) {
      for (float y = 60.f; y < 600.f; y += 4.f) {
        ImGui::GetIO().MousePos = ImVec2(x, y);
        Frame();
        if (!state_.hovered.is_none()) return true;
      }
    }
    return false;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  ViewState state_;
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

TEST_F(MainViewSmokeTest, DrawsAndFitsTheWholeTrace) {
  for (int i = 0; i < 3; ++i) Frame();
  const TimeRange span = state_.trace()->span();
  EXPECT_LE(state_.viewport.visible.start_ns, span.start_ns);
  EXPECT_GE(state_.viewport.visible.end_ns, span.end_ns);
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);  // it drew something substantial
}

TEST_F(MainViewSmokeTest, WheelZoomsAroundTheCursor) {
  Frame();
  ASSERT_TRUE(HoverSomeSlice());
  const DurNs before = state_.viewport.visible.duration_ns();
  ImGui::GetIO().MouseWheel = 2.f;
  Frame();
  EXPECT_LT(state_.viewport.visible.duration_ns(), before);
}

TEST_F(MainViewSmokeTest, ClickSelectsTheHoveredSliceAndKeysNavigate) {
  Frame();
  ASSERT_TRUE(HoverSomeSlice());
  const SliceId hovered = state_.hovered;
  ImGuiIO& io = ImGui::GetIO();
  io.MouseDown[0] = true;
  Frame();
  io.MouseDown[0] = false;
  Frame();
  EXPECT_EQ(state_.selected, hovered);
  // F fits the selection: the view becomes about the slice's duration.
  const DurNs dur = state_.trace()->slices().dur_ns()[hovered.index()];
  io.KeysDown[int{'F'}] = true;
  Frame();
  Frame();  // the fit request is applied at the next frame's start
  EXPECT_LE(state_.viewport.visible.duration_ns(), std::max<DurNs>(dur, 1000) * 13 / 10);
  // 0 fits everything again; D pans right.
  io.KeysDown[int{'0'}] = true;
  Frame();
  Frame();
  EXPECT_LE(state_.viewport.visible.start_ns, state_.trace()->span().start_ns);
  const TimeNs start = state_.viewport.visible.start_ns;
  io.KeysDown[int{'D'}] = true;
  Frame();
  EXPECT_GT(state_.viewport.visible.start_ns, start);
}

TEST_F(MainViewSmokeTest, HelpAndEmptyStatesDraw) {
  state_.show_help = true;
  state_.range = TimeRange{0, 2'000'000};
  status_.error = "trace.json: byte 12: \"ts\" is not a number";
  Frame();
  Frame();
  ViewState empty;
  ImGui::NewFrame();
  view_.Draw(empty, status_, &renderer_);
  ImGui::Render();
  SUCCEED();  // no assertion from ImGui's own checks, no crash
}

// Regression: the help window clipped its descriptions at a fixed 520 px and
// let the overview's text show through it.
TEST_F(MainViewSmokeTest, HelpWindowFitsEveryLineAndIsOpaque) {
  state_.show_help = true;
  for (int i = 0; i < 3; ++i) Frame();
  ImGuiWindow* help = ImGui::FindWindowByName("Keyboard and mouse");
  ASSERT_NE(help, nullptr);
  float widest = 0;
  for (const Shortcut& s : Shortcuts()) {
    widest = std::max(widest, ImGui::CalcTextSize(s.keys).x + ImGui::CalcTextSize(s.action).x);
  }
  EXPECT_GE(help->Size.x, widest + 2 * ImGui::GetStyle().WindowPadding.x);
  EXPECT_LE(help->ContentSize.x, help->Size.x - 2 * ImGui::GetStyle().WindowPadding.x + 1) << "nothing clipped";
  // The background is the first shape in the window's draw list.
  ASSERT_FALSE(help->DrawList->VtxBuffer.empty());
  EXPECT_EQ(help->DrawList->VtxBuffer[0].col >> IM_COL32_A_SHIFT & 0xff, 0xffu);
}

}  // namespace
}  // namespace stepline::ui
