// Highlights inside folded runs: for random nested slices on two tracks and
// random highlighted sets, every draw item at many zooms is highlighted
// exactly when a brute-force walk over the rows it stands for finds one.
#include "ui/timeline/highlight_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ui/timeline/draw_list.h"
#include "ui/timeline/track_depth_index.h"

namespace stepline::ui {
namespace {

Trace RandomNestedTrace(std::mt19937* rng, TrackId tracks[2]) {
  Trace trace;
  const ProcessId p = trace.mutable_processes().Append({1, {}, 0, -1});
  for (int i = 0; i < 2; ++i) {
    tracks[i] = trace.mutable_tracks().Append({TrackKind::kHostThread, p, 1 + i, {}, 0, -1, {}});
  }
  for (TrackId t : {tracks[0], tracks[1]}) {
    TimeNs at = 0;
    for (int i = 0; i < 3000; ++i) {
      const DurNs outer = 5 + static_cast<DurNs>((*rng)() % 200);
      trace.mutable_slices().Append({t, at, outer, {}, {}, {}, GpuKind::kNone});
      if ((*rng)() % 2) trace.mutable_slices().Append({t, at + 1, outer / 2, {}, {}, {}, GpuKind::kNone});
      at += outer + static_cast<DurNs>((*rng)() % 50);
    }
  }
  trace.Finalize();
  return trace;
}

TEST(HighlightIndexTest, FoldedRunsAreHighlightedExactlyWhenTheyHoldAHighlight) {
  std::mt19937 rng(7);
  TrackId tracks[2];
  const Trace trace = RandomNestedTrace(&rng, tracks);
  const TrackDepthIndex depths(trace);
  for (int density : {1, 50, 1000}) {  // 1 in `density` slices highlighted
    std::vector<uint32_t> rows;
    for (uint32_t r = 0; r < trace.slices().size(); ++r) {
      if (rng() % static_cast<uint32_t>(density) == 0) rows.push_back(r);
    }
    HighlightIndex index;
    index.Build(trace, rows);
    size_t folded = 0, folded_lit = 0;
    for (double width : {100.0, 1000.0, 20000.0}) {
      for (TrackId t : tracks) {
        std::vector<SliceDrawItem> items;
        BuildSliceDrawList(trace, depths, t, Viewport{trace.span(), width}, &items);
        for (const SliceDrawItem& it : items) {
          const auto list = depths.Rows(t, it.depth);
          ASSERT_EQ(list[it.index], it.slice.value);
          bool want = false;
          for (size_t i = it.index; i < it.index + it.count; ++i) {
            want |= std::binary_search(rows.begin(), rows.end(), list[i]);
          }
          const bool got = it.count == 1 ? index.Contains(it.slice.value)
                                         : index.AnyInDepthRun(list, it.index, it.count, it.depth);
          ASSERT_EQ(got, want) << "density " << density << " width " << width << " run at " << it.index;
          // The lane scan agrees where it does not give up.
          if (it.count <= HighlightIndex::kMaxLaneScan) {
            EXPECT_EQ(index.AnyInLaneRun(list, it.index, it.count), want);
          }
          folded += it.count > 1;
          folded_lit += it.count > 1 && got;
        }
      }
    }
    EXPECT_GT(folded, 0u);
    if (density == 50) {
      EXPECT_GT(folded_lit, 0u) << "no folded run held a highlight: the test proves nothing";
    }
  }
}

TEST(HighlightIndexTest, EmptyIndexHighlightsNothing) {
  std::mt19937 rng(1);
  TrackId tracks[2];
  const Trace trace = RandomNestedTrace(&rng, tracks);
  const TrackDepthIndex depths(trace);
  HighlightIndex index;
  index.Build(trace, {});
  EXPECT_TRUE(index.empty());
  EXPECT_FALSE(index.AnyInDepthRun(depths.Rows(tracks[0], 0), 0, 10, 0));
  EXPECT_FALSE(index.Contains(0));
}

}  // namespace
}  // namespace stepline::ui
