// Compare view timeline sync: step origins, viewport mapping between runs,
// which side leads, and the alignment the AlignedTimelines choose on real
// (synthetic) comparisons, including clamping and runs without steps.
#include "ui/compare/timeline_sync.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tests/support/synthetic_trace.h"
#include "ui/compare/aligned_timelines.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

Viewport View(TimeNs start, TimeNs end, double width = 1000) {
  Viewport v;
  v.visible = TimeRange{start, end};
  v.width_px = width;
  return v;
}

TEST(CompareTimelineSyncTest, StepOriginFallsBackToTheTraceStart) {
  const std::vector<TimeNs> starts = {100, 250, 400};
  EXPECT_EQ(StepOrigin(starts, 0, -7), 100);
  EXPECT_EQ(StepOrigin(starts, 2, -7), 400);
  EXPECT_EQ(StepOrigin(starts, 3, -7), -7);
  EXPECT_EQ(StepOrigin(starts, -1, -7), -7);
  EXPECT_EQ(StepOrigin({}, 0, 42), 42);
}

TEST(CompareTimelineSyncTest, MapViewportShiftsByTheOriginDifferenceAndKeepsZoom) {
  const Viewport a = View(1'000, 3'000, 800);
  const Viewport b = MapViewport(a, /*from_origin=*/900, /*to_origin=*/50'900);
  EXPECT_EQ(b.visible, (TimeRange{51'000, 53'000}));
  EXPECT_EQ(b.width_px, 800);
  EXPECT_DOUBLE_EQ(b.px_per_ns(), a.px_per_ns());
  // Time t after A's origin sits at the same x as t after B's origin.
  EXPECT_DOUBLE_EQ(a.TimeToX(900 + 1'500), b.TimeToX(50'900 + 1'500));
  // And back again.
  EXPECT_EQ(MapViewport(b, 50'900, 900).visible, a.visible);
  const StepAlignment align{900, 50'900};
  EXPECT_EQ(align.BFromA(2'400), 52'400);
  EXPECT_EQ(align.AFromB(52'400), 2'400);
}

TEST(CompareTimelineSyncTest, AlignedWindowCoversTheLongerStepWithMargins) {
  const StepAlignment align{10'000'000, 0};
  const TimeRange w = AlignedStepWindowA(align, 4'000'000, 6'000'000);
  EXPECT_LT(w.start_ns, 10'000'000);
  EXPECT_GE(w.end_ns, 16'000'000);
  EXPECT_LT(w.duration_ns(), 7'000'000);  // margins are small
  EXPECT_FALSE(AlignedStepWindowA(align, 0, 0).empty());
}

TEST(CompareTimelineSyncTest, WhicheverSideMovedLeads) {
  ViewportSync sync;
  const StepAlignment align{1'000, 101'000};
  Viewport a = View(0, 10'000), b = MapViewport(a, 1'000, 101'000);
  sync.Reset(align, a, b);
  // Nothing moved: nothing follows.
  EXPECT_FALSE(sync.Follow(ViewportSync::Side::kA, a, &b));
  EXPECT_FALSE(sync.Follow(ViewportSync::Side::kB, b, &a));
  // A zooms: B follows with the same window relative to its origin.
  a.ZoomAround(500, 2.0);
  ASSERT_TRUE(sync.Follow(ViewportSync::Side::kA, a, &b));
  EXPECT_EQ(b.visible.start_ns - 101'000, a.visible.start_ns - 1'000);
  EXPECT_EQ(b.visible.duration_ns(), a.visible.duration_ns());
  // Having followed, B has not "moved" on its own: A must not jump back.
  const TimeRange a_before = a.visible;
  EXPECT_FALSE(sync.Follow(ViewportSync::Side::kB, b, &a));
  EXPECT_EQ(a.visible, a_before);
  // B pans: A follows.
  b.Pan(-100);
  ASSERT_TRUE(sync.Follow(ViewportSync::Side::kB, b, &a));
  EXPECT_EQ(a.visible.start_ns, b.visible.start_ns - 100'000);
  EXPECT_EQ(a.visible.end_ns, b.visible.end_ns - 100'000);
}

// A run with `steps` steps of `step_us` each starting at `first_us`, a
// kernel per step, and a host op; the trace starts at 0 (a marker slice), so
// the first step is not cut.
std::shared_ptr<const TimelineData> MakeRun(int steps, int64_t first_us, int64_t step_us) {
  SyntheticTrace t;
  t.Thread("main").Slice("setup", Us(0), Us(5));
  for (int i = 0; i < steps; ++i) {
    const int64_t at = first_us + i * step_us;
    t.Thread("main").Slice("ProfilerStep#" + std::to_string(i + 1), Us(at), Us(step_us - 10));
    t.Kernel(7, Us(at + 10), Us(step_us / 2), "gemm").LaunchedFrom("main", Us(at + 2));
  }
  t.Thread("main").Slice("teardown", Us(first_us + steps * step_us + 50), Us(5));
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

analysis::Comparison CompareRuns(const TimelineData& a, const TimelineData& b) {
  return analysis::Compare({*a.trace, a.analysis, "a"}, {*b.trace, b.analysis, "b"});
}

TEST(CompareTimelineSyncTest, SelectStepsAlignsStepStartsAndClamps) {
  auto a = MakeRun(4, 100, 1'000), b = MakeRun(3, 7'000, 2'000);
  const analysis::Comparison c = CompareRuns(*a, *b);
  ASSERT_EQ(c.a.step_start_ns.size(), 4u);
  ASSERT_EQ(c.b.step_start_ns.size(), 3u);
  ViewState sa, sb;
  sa.data = a;
  sb.data = b;
  AlignedTimelines t;
  t.SelectSteps(sa, sb, c, 2, 2);
  // Step 3 of each (index 2) starts at first + 2 * step length.
  EXPECT_EQ(t.alignment().origin_a, Us(100 + 2 * 1'000));
  EXPECT_EQ(t.alignment().origin_b, Us(7'000 + 2 * 2'000));
  EXPECT_EQ(sa.ruler_origin_ns, t.alignment().origin_a);
  EXPECT_EQ(sb.ruler_origin_ns, t.alignment().origin_b);
  EXPECT_EQ(sa.links.focused_step, 2);
  EXPECT_EQ(sb.links.focused_step, 2);
  // Both windows show the same span after their own step start, and it
  // covers the longer (B's, 2 ms) step.
  EXPECT_EQ(sa.viewport.visible.start_ns - t.alignment().origin_a,
            sb.viewport.visible.start_ns - t.alignment().origin_b);
  EXPECT_EQ(sa.viewport.visible.duration_ns(), sb.viewport.visible.duration_ns());
  EXPECT_GE(sb.viewport.visible.end_ns, t.alignment().origin_b + Us(2'000 - 10));
  // Past the last step: clamped per run.
  t.SelectSteps(sa, sb, c, 9, 9);
  EXPECT_EQ(t.step(0), 3);
  EXPECT_EQ(t.step(1), 2);
  EXPECT_EQ(t.alignment().origin_a, Us(100 + 3 * 1'000));
  t.SelectSteps(sa, sb, c, -4, 1);
  EXPECT_EQ(t.step(0), 0);
  EXPECT_EQ(t.step(1), 1);
}

TEST(CompareTimelineSyncTest, RunWithoutStepsAlignsOnItsTraceStart) {
  auto a = MakeRun(3, 100, 1'000);
  SyntheticTrace plain;
  plain.Thread("main").Slice("work", Us(500), Us(100)).Slice("more", Us(900), Us(100));
  auto b = std::make_shared<const TimelineData>(std::make_shared<const Trace>(plain.Build()));
  const analysis::Comparison c = CompareRuns(*a, *b);
  ASSERT_TRUE(c.b.step_start_ns.empty());
  ViewState sa, sb;
  sa.data = a;
  sb.data = b;
  AlignedTimelines t;
  t.SelectSteps(sa, sb, c, 1, 1);
  EXPECT_EQ(t.step(1), -1);
  EXPECT_EQ(t.alignment().origin_b, Us(500));  // the trace's first timestamp
  EXPECT_EQ(t.alignment().origin_a, Us(1'100));
}

}  // namespace
}  // namespace stepline::ui
