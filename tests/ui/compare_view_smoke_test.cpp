// The whole compare view drawn headless (ImGui without a backend, as in
// main_view_smoke_test) on two synthetic runs: it draws both timelines and
// tables; a wheel zoom over A's timeline moves B's by the same window
// relative to its aligned step; a key press moves only the focused side
// (then sync carries it); the step selector and name normalizing work.
#include "ui/compare/compare_view.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

std::shared_ptr<const TimelineData> MakeRun(int steps, int64_t first_us, int64_t step_us, const char* op) {
  SyntheticTrace t;
  t.Thread("main").Slice("setup", Us(0), Us(5));
  for (int i = 0; i < steps; ++i) {
    const int64_t at = first_us + i * step_us;
    t.Thread("main").Slice("ProfilerStep#" + std::to_string(i + 1), Us(at), Us(step_us - 10));
    t.Thread("main").Slice(std::string(op) + "_" + std::to_string(i), Us(at + 1), Us(5));
    t.Kernel(7, Us(at + 10), Us(step_us / 2), "gemm").LaunchedFrom("main", Us(at + 2));
  }
  t.Thread("main").Slice("teardown", Us(first_us + steps * step_us + 50), Us(5));
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

class CompareViewSmokeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.SetRuns(MakeRun(5, 100, 1'000, "aten::add"), "a.json", MakeRun(4, 20'000, 3'000, "aten::add"), "b.json");
  }

  CompareRequests Frame() {
    ImGui::NewFrame();
    CompareRequests r = view_.Draw(status_, &renderer_);
    ImGui::Render();
    ImGuiIO& io = ImGui::GetIO();
    io.MouseWheel = 0.f;
    for (bool& k : io.KeysDown) k = false;
    return r;
  }
  // Window-relative position of each side, relative to its aligned step start.
  TimeNs RelStart(int side) {
    const TimeNs origin = side == 0 ? view_.timelines().alignment().origin_a : view_.timelines().alignment().origin_b;
    return view_.state(side).viewport.visible.start_ns - origin;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  CompareView view_;
  CompareStatus status_;
  DrawListQuadRenderer renderer_;
};

TEST_F(CompareViewSmokeTest, DrawsBothRunsAlignedOnTheirFirstFullSteps) {
  for (int i = 0; i < 3; ++i) Frame();
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 2000);
  const auto& c = view_.comparison();
  EXPECT_EQ(c.a.steps, 5u);
  EXPECT_EQ(c.b.steps, 4u);
  EXPECT_EQ(view_.timelines().step(0), c.a.first_full_step);
  EXPECT_EQ(view_.timelines().step(1), c.b.first_full_step);
  EXPECT_EQ(view_.timelines().alignment().origin_b, Us(20'000) + c.b.first_full_step * Us(3'000));
  EXPECT_EQ(RelStart(0), RelStart(1));
  // The timelines laid themselves out at the width of the right-hand column.
  EXPECT_GT(view_.state(0).viewport.width_px, 400);
  EXPECT_EQ(view_.state(0).viewport.width_px, view_.state(1).viewport.width_px);
}

TEST_F(CompareViewSmokeTest, WheelOverATimelineZoomsBoth) {
  Frame();
  Frame();
  const DurNs before = view_.state(1).viewport.visible.duration_ns();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(1200, 160);  // A's timeline (the upper one) in the right column
  Frame();
  io.MouseWheel = 2.f;
  Frame();
  Frame();
  EXPECT_LT(view_.state(0).viewport.visible.duration_ns(), before);
  EXPECT_EQ(view_.state(1).viewport.visible.duration_ns(), view_.state(0).viewport.visible.duration_ns());
  EXPECT_EQ(RelStart(0), RelStart(1));
}

TEST_F(CompareViewSmokeTest, KeysMoveTheFocusedTimelineOnceAndSyncCarriesIt) {
  Frame();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(1200, 160);
  Frame();
  io.MouseDown[0] = true;  // click into A's timeline: it takes focus
  Frame();
  io.MouseDown[0] = false;
  Frame();
  const DurNs before = view_.state(0).viewport.visible.duration_ns();
  io.KeysDown[int{'W'}] = true;
  Frame();
  Frame();
  // One press zooms by one step (1.25x), not once per panel.
  const double ratio = static_cast<double>(before) / static_cast<double>(view_.state(0).viewport.visible.duration_ns());
  EXPECT_NEAR(ratio, 1.25, 0.01);
  EXPECT_EQ(RelStart(0), RelStart(1));
}

TEST_F(CompareViewSmokeTest, StepSelectionAndNormalizing) {
  Frame();
  view_.SelectStep(2);
  EXPECT_EQ(view_.timelines().step(0), 2);
  EXPECT_EQ(view_.timelines().step(1), 2);
  EXPECT_EQ(view_.timelines().alignment().origin_a, Us(100 + 2 * 1'000));
  EXPECT_EQ(view_.timelines().alignment().origin_b, Us(20'000 + 2 * 3'000));
  Frame();
  EXPECT_EQ(RelStart(0), RelStart(1));
  // Focusing a step in B's Steps strip (what a click there does) moves both
  // runs by the same number of steps.
  view_.state(1).links.focused_step = 3;
  Frame();
  EXPECT_EQ(view_.timelines().step(0), 3);
  EXPECT_EQ(view_.timelines().step(1), 3);
  EXPECT_EQ(view_.timelines().alignment().origin_b, Us(20'000 + 3 * 3'000));
  view_.SelectSteps(1, 0);
  view_.state(0).links.focused_step = 4;
  Frame();
  EXPECT_EQ(view_.timelines().step(0), 4);
  EXPECT_EQ(view_.timelines().step(1), 3);  // the one-step offset holds
  // aten::add_0.._4 fold into one row when normalizing, five rows when not.
  auto rows_named = [&](std::string_view prefix) {
    size_t n = 0;
    for (const auto& r : view_.comparison().ops) n += r.name.starts_with(prefix);
    return n;
  };
  EXPECT_EQ(rows_named("aten::add"), 1u);
  view_.SetNormalizeNames(false);
  EXPECT_EQ(rows_named("aten::add"), 5u);
  Frame();
}

TEST_F(CompareViewSmokeTest, SelectingAnOpHighlightsItInBothRunsAndShowsOne) {
  Frame();
  int gemm = -1;
  const auto& ops = view_.comparison().ops;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].name == "gemm" && ops[i].kind == analysis::OpKind::kKernel) gemm = static_cast<int>(i);
  }
  ASSERT_GE(gemm, 0);
  // Look far away from any kernel first, so the selection has to bring one into view.
  view_.state(0).viewport.visible = TimeRange{Us(50'000), Us(50'100)};
  Frame();
  view_.SelectOp(gemm);
  EXPECT_EQ(view_.state(0).links.op_occurrences.size(), 5u);  // one gemm per step: 5 steps in A
  EXPECT_EQ(view_.state(1).links.op_occurrences.size(), 4u);  // 4 in B
  Frame();
  Frame();
  const Trace& a = *view_.state(0).trace();
  const TimeRange vis = view_.state(0).viewport.visible;
  bool visible = false;
  for (uint32_t row : view_.state(0).links.op_occurrences) {
    const TimeNs s = a.slices().start_ns()[row];
    visible |= s < vis.end_ns && s + a.slices().dur_ns()[row] > vis.start_ns;
  }
  EXPECT_TRUE(visible);
  EXPECT_EQ(RelStart(0), RelStart(1));  // B followed
}

// `screenshot --view compare --range`: the range counts from the aligned
// step starts, frames A exactly and B the same window of its own step, and
// survives drawing (sync does not pull it back).
TEST_F(CompareViewSmokeTest, AlignedRangeFramesBothSidesFromTheirStepStarts) {
  view_.SelectStep(2);
  Frame();
  view_.ShowAlignedRange(Us(100), Us(400));
  Frame();
  Frame();
  const StepAlignment& align = view_.timelines().alignment();
  EXPECT_EQ(view_.state(0).viewport.visible.start_ns, align.origin_a + Us(100));
  EXPECT_EQ(view_.state(0).viewport.visible.end_ns, align.origin_a + Us(400));
  EXPECT_EQ(view_.state(1).viewport.visible.start_ns, align.origin_b + Us(100));
  EXPECT_EQ(view_.state(1).viewport.visible.end_ns, align.origin_b + Us(400));
  EXPECT_EQ(view_.timelines().step(0), 2);  // the alignment is kept
}

TEST_F(CompareViewSmokeTest, StatusAndEmptyStatesDraw) {
  status_.load[1] = CompareStatus::Load{true, 0.4, "c.json"};
  status_.error = "B: c.json: byte 12: \"ts\" is not a number";
  Frame();
  CompareView empty;
  ImGui::NewFrame();
  empty.Draw(status_, &renderer_);
  ImGui::Render();
  SUCCEED();
}

}  // namespace
}  // namespace stepline::ui
