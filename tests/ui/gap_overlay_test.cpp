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

// A device whose gaps are a->gaps[begin, end).
void AddTestDevice(AnalysisData* a, uint32_t begin, uint32_t end) {
  analysis::DeviceAnalysis d;
  d.gaps_begin = begin;
  d.gaps_end = end;
  a->devices.push_back(std::move(d));
}

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
  ASSERT_EQ(a.devices.size(), 1u);
  ASSERT_EQ(a.gaps.size(), 2u);
  const analysis::IdleGap& input = a.gaps[0];
  EXPECT_EQ(input.start_ns, Us(110));
  EXPECT_EQ(input.end_ns, Us(420));
  EXPECT_EQ(input.cause, analysis::IdleCause::kInput);
  ASSERT_FALSE(input.cause_events.empty());
  EXPECT_EQ(SliceName(*data->trace, input.cause_events[0].slice), "IteratorGetNext");
  EXPECT_EQ(SliceName(*data->trace, input.next_kernel), "B");
  EXPECT_EQ(a.gaps[1].cause, analysis::IdleCause::kOther);
  EXPECT_EQ(a.top_blamed.name.is_none() ? "" : data->trace->str(a.top_blamed.name), "IteratorGetNext");
  // Only [100, 430) us touches the first gap.
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(100), Us(430)}), std::make_pair(0u, 1u));
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(0), Us(1000)}), std::make_pair(0u, 2u));
  EXPECT_EQ(GapsInRange(a, 0, TimeRange{Us(600), Us(1000)}).first,
            GapsInRange(a, 0, TimeRange{Us(600), Us(1000)}).second);
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
  // 200 us per px: the gaps land within a pixel of each other and fold into
  // one run, shaded column by column with the idle share of each: 90 of 200
  // us in column 0, all of column 1, and 20 us of input gap plus the 5 us
  // launch bubble in column 2, coloured by the input gap (more idle ns there).
  vp.width_px = 5;
  BuildGapOverlay(index, 0, vp, 1.f, &items);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_FLOAT_EQ(items[0].idle_fraction, 0.45f);
  EXPECT_FLOAT_EQ(items[1].idle_fraction, 1.f);
  EXPECT_FLOAT_EQ(items[2].idle_fraction, 0.125f);
  EXPECT_EQ(items[2].count, 2u);
  EXPECT_EQ(items[2].gap, 0u);
  EXPECT_EQ(items[2].cause, analysis::IdleCause::kInput);
  // A minimum duration drops the launch bubble.
  vp.width_px = 1000;
  BuildGapOverlay(GapIndex(data->analysis, Us(10)), 0, vp, 1.f, &items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].gap, 0u);
}

// Regression: at zoom-out a GPU 69% busy in short kernels was shaded solid,
// reading as idle. Kernels of 690 ns with 310 ns gaps, 200k of them (200 ms),
// on 1920 px (~104 us, ~100 gaps per px): every column is 31% idle.
TEST(GapOverlayTest, BusyGpuAtZoomOutShadesItsIdleShareNotSolid) {
  AnalysisData a;
  for (TimeNs t = 0; t < 200'000'000; t += 1000) {
    analysis::IdleGap g;
    g.start_ns = t + 690;
    g.end_ns = t + 1000;
    g.cause = t % 3000 == 0 ? analysis::IdleCause::kLaunch : analysis::IdleCause::kOther;
    a.gaps.push_back(g);
    a.gap_device.push_back(0);
  }
  AddTestDevice(&a, 0, static_cast<uint32_t>(a.gaps.size()));
  const GapIndex index(a);
  std::vector<GapOverlayItem> items;
  BuildGapOverlay(index, 0, Viewport{TimeRange{0, 200'000'000}, 1920.0}, 1.f, &items);
  ASSERT_EQ(items.size(), 1920u);  // one per column: bounded by pixels, not by the 200k gaps
  double covered = 0;
  for (const GapOverlayItem& it : items) {
    EXPECT_NEAR(it.idle_fraction, 0.31, 0.01) << "x " << it.x0_px;
    covered += (it.x1_px - it.x0_px) * it.idle_fraction;
  }
  EXPECT_NEAR(covered / 1920.0, 0.31, 0.002);
  // Zoomed in to 2 us on 1000 px, each gap is itself again: fully shaded.
  BuildGapOverlay(index, 0, Viewport{TimeRange{5000, 7000}, 1000.0}, 1.f, &items);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_FLOAT_EQ(items[0].x0_px, 345.f);
  EXPECT_FLOAT_EQ(items[0].x1_px, 500.f);
  EXPECT_EQ(items[0].idle_fraction, 1.f);
  EXPECT_EQ(items[0].count, 1u);
}

TEST(GapOverlayTest, OneWideGapIsShadedFullyAtItsExactExtent) {
  auto data = MakeData();
  std::vector<GapOverlayItem> items;
  // 0.1 us per px: the 310 us input gap spans [100, 3200) px of a 4000 px view.
  BuildGapOverlay(data->gap_index, 0, Viewport{TimeRange{Us(100), Us(500)}, 4000.0}, 1.f, &items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_FLOAT_EQ(items[0].x0_px, 100.f);
  EXPECT_FLOAT_EQ(items[0].x1_px, 3200.f);
  EXPECT_EQ(items[0].idle_fraction, 1.f);
  EXPECT_EQ(items[0].cause, analysis::IdleCause::kInput);
  // Inside the gap (no edge in view) it fills the view, still fully idle.
  BuildGapOverlay(data->gap_index, 0, Viewport{TimeRange{Us(200), Us(300)}, 1000.0}, 1.f, &items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].idle_fraction, 1.f);
  EXPECT_LE(items[0].x0_px, 0.f);
  EXPECT_GE(items[0].x1_px, 1000.f);
}

// The overlay shades what the Idle gaps list lists: both read the filters in
// ViewState, and a hidden cause or a gap under the minimum is not shaded.
TEST(GapOverlayTest, ShadingFollowsTheIdleGapsFilters) {
  ViewState state;
  state.data = MakeData();
  const Viewport vp{TimeRange{0, Us(1000)}, 1000.0};
  GapOverlayFilter filter;
  std::vector<GapOverlayItem> items;
  auto shaded_gaps = [&] {
    BuildGapOverlay(filter.Get(state.data, state.links.gap_cause_mask, state.links.gap_min_dur_ns), 0, vp, 1.f, &items);
    std::vector<uint32_t> ids;
    for (const GapOverlayItem& it : items) ids.push_back(it.gap);
    return ids;
  };
  // Defaults: the report's 10 us minimum hides the 5 us launch bubble.
  EXPECT_EQ(state.links.gap_min_dur_ns, Us(10));
  EXPECT_EQ(shaded_gaps(), std::vector<uint32_t>{0});
  state.links.gap_min_dur_ns = 0;
  EXPECT_EQ(shaded_gaps(), (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(&filter.Get(state.data, state.links.gap_cause_mask, 0), &state.data->gap_index);  // no copy when unfiltered
  state.links.gap_cause_mask &= ~(1u << static_cast<unsigned>(analysis::IdleCause::kInput));
  EXPECT_EQ(shaded_gaps(), std::vector<uint32_t>{1});
  state.links.gap_cause_mask = 0;
  EXPECT_TRUE(shaded_gaps().empty());
  // A new trace with the same filters is not mistaken for the old one.
  state.links.gap_cause_mask = 1u << static_cast<unsigned>(analysis::IdleCause::kOther);
  EXPECT_EQ(shaded_gaps(), std::vector<uint32_t>{1});
  state.data = MakeData();
  EXPECT_EQ(filter.Get(state.data, state.links.gap_cause_mask, 0).size(), 1u);
  EXPECT_EQ(filter.Get(state.data, state.links.gap_cause_mask, 0).gap_id(0), 1u);
}

TEST(GapOverlayTest, SelectingAGapFramesItAndSelectsTheBlamedEvent) {
  ViewState state;
  state.data = MakeData();
  state.SelectGap(0);
  EXPECT_EQ(state.links.selected_gap, 0);
  EXPECT_EQ(SliceName(*state.trace(), state.selected), "IteratorGetNext");
  ASSERT_TRUE(state.requests.fit.has_value());
  // The frame holds the gap, the blamed event and the kernel that ended it.
  EXPECT_LE(state.requests.fit->start_ns, Us(110));
  EXPECT_GE(state.requests.fit->end_ns, Us(520));
  // A gap without blamed events selects the launch call of its kernel.
  state.SelectGap(1);
  EXPECT_EQ(SliceName(*state.trace(), state.selected), "cudaLaunchKernel");
  state.SelectGap(7);
  EXPECT_EQ(state.links.selected_gap, -1);
}

}  // namespace
}  // namespace stepline::ui
