// Gap <-> timeline linking on a hand-made trace with one input-caused gap
// and one launch bubble: the analysis data keeps ids, the overlay folds
// sub-pixel gaps, and selecting a gap frames it and selects the blamed event.
// Random gap sets at many zooms are checked against the per-gap walk in
// gap_overlay_reference_test.cpp.
#include "ui/timeline/gap_overlay.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/support/synthetic_trace.h"
#include "ui/view_state.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

// Kernels A [10,110), B [420,520), C [525,600) us on stream 7. The 310 us gap
// before B has IteratorGetNext on the launching thread (cause input); the
// 5 us gap before C was launched before it began (cause other).
std::shared_ptr<const TimelineData> MakeData() {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#1", Us(0), Us(1000))
                .Slice("IteratorGetNext", Us(120), Us(280))
                .Kernel(7, Us(10), Us(100), "A")
                .LaunchedFrom("main", Us(5))
                .Kernel(7, Us(420), Us(100), "B")
                .LaunchedFrom("main", Us(410))
                .Kernel(7, Us(525), Us(75), "C")
                .LaunchedFrom("main", Us(515))
                .Build();
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(t)));
}

std::string_view SliceName(const Trace& t, SliceId s) { return t.str(t.slices().name()[s.index()]); }

TEST(GapOverlayTest, AnalysisDataKeepsGapIdsPerDevice) {
  auto data = MakeData();
  const AnalysisData& a = data->analysis;
  ASSERT_EQ(a.device_gaps.size(), 1u);
  ASSERT_EQ(a.gaps.size(), 2u);
  const analysis::IdleGap& input = a.gaps[0];
  EXPECT_EQ(input.start_ns, Us(110));
  EXPECT_EQ(input.end_ns, Us(420));
  EXPECT_EQ(input.cause, analysis::IdleCause::kInput);
  ASSERT_FALSE(input.cause_events.empty());
  EXPECT_EQ(SliceName(*data->trace, input.cause_events[0].slice), "IteratorGetNext");
  EXPECT_EQ(SliceName(*data->trace, input.next_kernel), "B");
  EXPECT_EQ(a.gaps[1].cause, analysis::IdleCause::kOther);
  EXPECT_EQ(a.top_blamed_event >= 0 ? a.report.gap_events[a.top_blamed_event].name : "", "IteratorGetNext");
  // Only [100, 430) us touches the first gap.
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(100), Us(430)}), std::make_pair(0u, 1u));
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(0), Us(1000)}), std::make_pair(0u, 2u));
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(600), Us(1000)}).first, GapsInRange(a, 0, TimeRange{Us(600), Us(1000)}).second);
}

TEST(GapOverlayTest, FoldsGapsCloserThanAPixelKeepingTheLongestCause) {
  auto data = MakeData();
  Viewport vp;
  vp.visible = TimeRange{0, Us(1000)};
  vp.width_px = 1000;  // 1 px per us: both gaps are distinct items
  const GapIndex index(data->analysis);
  std::vector<GapOverlayItem> items;
  BuildGapOverlay(index, 0, vp, 1.f, &items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_FLOAT_EQ(items[0].x0_px, 110.f);
  EXPECT_FLOAT_EQ(items[0].x1_px, 420.f);
  EXPECT_EQ(GapItemAtX(items, 200.f), 0);
  EXPECT_EQ(GapItemAtX(items, 522.f), 1);
  EXPECT_EQ(GapItemAtX(items, 450.f), -1);
  // 0.005 px per us: both gaps land within a pixel of each other and fold into
  // one item that reports the 310 us input gap.
  vp.width_px = 5;
  BuildGapOverlay(index, 0, vp, 1.f, &items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 2u);
  EXPECT_EQ(items[0].cause, analysis::IdleCause::kInput);
  // A minimum duration drops the launch bubble.
  vp.width_px = 1000;
  BuildGapOverlay(GapIndex(data->analysis, Us(10)), 0, vp, 1.f, &items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].gap, 0u);
}

TEST(GapOverlayTest, SelectingAGapFramesItAndSelectsTheBlamedEvent) {
  ViewState state;
  state.data = MakeData();
  state.SelectGap(0);
  EXPECT_EQ(state.selected_gap, 0);
  EXPECT_EQ(SliceName(*state.trace(), state.selected), "IteratorGetNext");
  ASSERT_TRUE(state.request_fit.has_value());
  // The frame holds the gap, the blamed event and the kernel that ended it.
  EXPECT_LE(state.request_fit->start_ns, Us(110));
  EXPECT_GE(state.request_fit->end_ns, Us(520));
  // A gap without blamed events selects the launch call of its kernel.
  state.SelectGap(1);
  EXPECT_EQ(SliceName(*state.trace(), state.selected), "cudaLaunchKernel");
  state.SelectGap(7);
  EXPECT_EQ(state.selected_gap, -1);
}

}  // namespace
}  // namespace stepline::ui
