// Draw-list LOD: wide slices one item each, thin runs folded with a count,
// gaps split runs, work bounded by pixels, depths kept apart.
#include "ui/timeline/draw_list.h"

#include <gtest/gtest.h>

#include <numeric>

namespace stepline::ui {
namespace {

struct Fixture {
  Trace trace;
  TrackId track;
  Fixture() {
    const ProcessId p = trace.mutable_processes().Append({1, {}, 0, -1});
    track = trace.mutable_tracks().Append({TrackKind::kHostThread, p, 1, {}, 0, -1, {}});
  }
  void Slice(TimeNs start, DurNs dur) { trace.mutable_slices().Append({track, start, dur, {}, {}, {}, GpuKind::kNone}); }
  std::vector<SliceDrawItem> Build(TimeRange visible, double width) {
    if (!trace.finalized()) trace.Finalize();
    TrackDepthIndex index(trace);
    std::vector<SliceDrawItem> out;
    BuildSliceDrawList(trace, index, track, Viewport{visible, width}, &out);
    return out;
  }
};

TEST(DrawListTest, WideSlicesAreSingleItems) {
  Fixture f;
  f.Slice(0, 100);
  f.Slice(200, 100);
  const auto items = f.Build({0, 1000}, 1000.0);  // 1 px per ns
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].count, 1u);
  EXPECT_FLOAT_EQ(items[0].x0_px, 0.f);
  EXPECT_FLOAT_EQ(items[0].x1_px, 100.f);
  EXPECT_FLOAT_EQ(items[1].x0_px, 200.f);
}

TEST(DrawListTest, ThinRunFoldsWithCountAndGapSplitsIt) {
  Fixture f;
  for (int i = 0; i < 1000; ++i) f.Slice(i * 10, 5);       // 1000 slices in [0, 10000)
  for (int i = 0; i < 500; ++i) f.Slice(50000 + i * 10, 5);  // a second run after a wide gap
  const auto items = f.Build({0, 100000}, 1000.0);          // 0.01 px per ns: each slice 0.05 px
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].count, 1000u);
  EXPECT_EQ(items[1].count, 500u);
  EXPECT_NEAR(items[0].x1_px, 99.95, 0.01);
  EXPECT_NEAR(items[1].x0_px, 500.0, 0.01);
  EXPECT_EQ(items[0].slice, SliceId(0));
  EXPECT_EQ(items[1].slice, SliceId(1000));
}

TEST(DrawListTest, WideSliceAfterThinRunIsDrawnOnItsOwn) {
  Fixture f;
  f.Slice(0, 1);
  f.Slice(2, 1);
  f.Slice(4, 500);  // starts inside the fold distance but is wide
  const auto items = f.Build({0, 1000}, 1000.0);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].count, 2u);
  EXPECT_EQ(items[1].count, 1u);
  EXPECT_EQ(items[1].slice, SliceId(2));
}

TEST(DrawListTest, SliceStartingBeforeWindowIsIncludedAndClamped) {
  Fixture f;
  f.Slice(-500, 1000);  // covers the window's start
  f.Slice(2000, 10);    // after the window
  const auto items = f.Build({0, 1000}, 100.0);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_FLOAT_EQ(items[0].x0_px, -2.f);
  EXPECT_FLOAT_EQ(items[0].x1_px, 50.f);
}

TEST(DrawListTest, DepthsAreSeparateRows) {
  Fixture f;
  f.Slice(0, 1000);
  f.Slice(100, 100);
  f.Slice(300, 100);
  const auto items = f.Build({0, 1000}, 1000.0);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].depth, 0);
  EXPECT_EQ(items[1].depth, 1);
  EXPECT_EQ(items[2].depth, 1);
}

TEST(DrawListTest, WorkIsBoundedByPixelsNotEvents) {
  Fixture f;
  constexpr int kSlices = 2'000'000;
  for (int i = 0; i < kSlices; ++i) f.Slice(int64_t{i} * 100, 60);
  const auto items = f.Build({0, int64_t{kSlices} * 100}, 1920.0);
  // All slices are thin and 40 ns apart: one run per ~3 px at most.
  EXPECT_LE(items.size(), 1920u / 3 + 2);
  uint64_t total = 0;
  for (const auto& it : items) total += it.count;
  EXPECT_EQ(total, static_cast<uint64_t>(kSlices));  // every slice accounted for exactly once
}

}  // namespace
}  // namespace stepline::ui
