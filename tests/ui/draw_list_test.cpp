// Draw-list LOD: wide slices one item each, thin runs folded with a count,
// gaps split runs, work bounded by pixels, depths kept apart. Counter columns
// against the per-sample walk on random samples at many zooms.
#include "ui/timeline/draw_list.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <string>

#include "tests/ui/expect_same_columns.h"

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

// The sampled starts only speed the searches up: every depth of a random
// nested track folds into the same items with them as by galloping over the
// rows, at every zoom.
TEST(DrawListTest, SampledStartsFoldLikeTheRows) {
  std::mt19937_64 rng(31);
  Fixture f;
  TimeNs t = 0;
  for (int i = 0; i < 60'000; ++i) {
    t += 1 + static_cast<TimeNs>(rng() % 200);
    const DurNs dur = 2 + static_cast<DurNs>(rng() % (rng() % 50 == 0 ? 50'000 : 300));
    f.Slice(t, dur);
    if (rng() % 3 == 0) f.Slice(t + 1, dur / 2);  // a child, one depth down
    t += dur;
  }
  f.trace.Finalize();
  const TrackDepthIndex index(f.trace);
  ASSERT_EQ(index.depth_count(f.track), 2u);
  std::vector<SliceDrawItem> sampled, galloped;
  for (int v = 0; v < 300; ++v) {
    const double fraction = std::pow(10.0, -static_cast<double>(rng() % 500) / 100.0) * 1.2;
    const auto dur = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(t) * fraction));
    const TimeNs start = static_cast<TimeNs>(rng() % static_cast<uint64_t>(t)) - dur / 3;
    const Viewport vp{TimeRange{start, start + dur}, v % 3 == 0 ? 333.0 : 1920.0};
    for (size_t d = 0; d < 2; ++d) {
      sampled.clear();
      galloped.clear();
      ASSERT_FALSE(index.StartSamples(f.track, d).empty());
      BuildRowDrawList(f.trace, index.Rows(f.track, d), index.StartSamples(f.track, d), static_cast<uint16_t>(d), vp,
                       &sampled);
      BuildRowDrawList(f.trace, index.Rows(f.track, d), {}, static_cast<uint16_t>(d), vp, &galloped);
      ASSERT_EQ(sampled.size(), galloped.size()) << "view " << v << " depth " << d;
      for (size_t i = 0; i < sampled.size(); ++i) {
        const SliceDrawItem &a = sampled[i], &b = galloped[i];
        ASSERT_TRUE(a.x0_px == b.x0_px && a.x1_px == b.x1_px && a.count == b.count && a.slice == b.slice &&
                    a.index == b.index)
            << "view " << v << " depth " << d << " item " << i;
      }
    }
  }
}

// Counter columns against the per-sample walk they replaced.


// The counter row as it was drawn before BuildCounterColumns: every sample in
// view visited, each one's value max-merged into the columns it holds.
std::vector<float> ReferenceCounterColumns(const Trace& trace, TrackId track, const Viewport& viewport, int width) {
  const auto& r = trace.tracks().ranges(track);
  const auto ts = trace.counters().ts_ns();
  const auto values = trace.counters().value();
  std::vector<float> column(static_cast<size_t>(width), NAN);
  if (r.counter_end == r.counter_begin) return column;
  auto first = std::upper_bound(ts.begin() + r.counter_begin, ts.begin() + r.counter_end, viewport.visible.start_ns);
  if (first != ts.begin() + r.counter_begin) --first;
  const auto end = ts.begin() + r.counter_end;
  for (auto it = first; it != end && *it < viewport.visible.end_ns; ++it) {
    const size_t i = static_cast<size_t>(it - ts.begin());
    const double x_start = std::max(0.0, viewport.TimeToX(*it));
    const double x_end = i + 1 < r.counter_end ? std::min<double>(width, viewport.TimeToX(ts[i + 1])) : width;
    const float v = static_cast<float>(values[i]);
    const int c_end = std::min(width, std::max(static_cast<int>(x_start) + 1, static_cast<int>(x_end)));
    for (int c = static_cast<int>(x_start); c < c_end; ++c) {
      column[c] = std::isnan(column[c]) ? v : std::max(column[c], v);
    }
  }
  return column;
}

struct CounterFixture {
  Trace trace;
  std::vector<TrackId> tracks;
  explicit CounterFixture(int count) {
    const ProcessId p = trace.mutable_processes().Append({1, {}, 0, -1});
    for (int i = 0; i < count; ++i) {
      tracks.push_back(trace.mutable_tracks().Append({TrackKind::kCounter, p, i, {}, 0, -1, {}}));
    }
  }
};

TEST(CounterColumnsTest, RandomSamplesAtManyZoomsMatchTheWalk) {
  std::mt19937_64 rng(17);
  CounterFixture f(4);
  // Track 0: 300k dense samples with duplicate times; 1: sparse, far apart;
  // 2: a single sample; 3: no samples.
  TimeNs t = 5'000;
  for (int i = 0; i < 300'000; ++i) {
    t += static_cast<TimeNs>(rng() % 40);  // 0: same timestamp as the previous sample
    f.trace.mutable_counters().Append(f.tracks[0], t, static_cast<double>(rng() % 100'000) / 7.0 - 3000.0);
  }
  const TimeNs dense_end = t;
  t = 0;
  for (int i = 0; i < 200; ++i) {
    t += 1 + static_cast<TimeNs>(rng() % 100'000);
    f.trace.mutable_counters().Append(f.tracks[1], t, static_cast<double>(rng() % 50));
  }
  f.trace.mutable_counters().Append(f.tracks[2], 1'000'000, 42.0);
  f.trace.Finalize();
  const RangeArgMax<double> value_max(f.trace.counters().value());
  std::vector<float> got;
  for (int v = 0; v < 1500; ++v) {
    const TrackId track = f.tracks[rng() % f.tracks.size()];
    const double fraction = std::pow(10.0, -static_cast<double>(rng() % 700) / 100.0) * 1.3;
    const auto dur = std::max<DurNs>(1, static_cast<DurNs>(static_cast<double>(dense_end) * fraction));
    TimeNs start = static_cast<TimeNs>(rng() % static_cast<uint64_t>(dense_end)) - dur / 4;
    const auto& r = f.trace.tracks().ranges(track);
    if (v % 4 == 0 && r.counter_end > r.counter_begin) {  // on a sample, from either side
      start = f.trace.counters().ts_ns()[r.counter_begin + rng() % (r.counter_end - r.counter_begin)];
      if (rng() % 2) start -= dur;
    }
    const int widths[] = {1920, 1, 2, 333, 4000};
    const int width = widths[rng() % 5];
    const Viewport vp{TimeRange{start, start + dur}, static_cast<double>(width)};
    BuildCounterColumns(f.trace, track, value_max, vp, width, &got);
    ExpectSameColumns(got, ReferenceCounterColumns(f.trace, track, vp, width),
                      "view " + std::to_string(v) + " track " + std::to_string(track.index()) + " [" +
                          std::to_string(start) + ", " + std::to_string(start + dur) + ") width " +
                          std::to_string(width));
    if (HasFatalFailure()) return;
  }
}

TEST(CounterColumnsTest, ColumnHoldsTheHighestSampleStartingInIt) {
  CounterFixture f(1);
  for (int i = 0; i < 1000; ++i) f.trace.mutable_counters().Append(f.tracks[0], i, i == 537 ? 99.0 : 1.0);
  f.trace.Finalize();
  const RangeArgMax<double> value_max(f.trace.counters().value());
  std::vector<float> cols;
  BuildCounterColumns(f.trace, f.tracks[0], value_max, Viewport{TimeRange{0, 1000}, 10.0}, 10, &cols);
  ASSERT_EQ(cols.size(), 10u);
  EXPECT_EQ(cols[5], 99.f);  // samples 500..599
  EXPECT_EQ(cols[4], 1.f);
  EXPECT_EQ(cols[9], 1.f);
  // Before the first sample nothing is drawn; after the last its value holds.
  BuildCounterColumns(f.trace, f.tracks[0], value_max, Viewport{TimeRange{-500, 1500}, 4.0}, 4, &cols);
  EXPECT_TRUE(std::isnan(cols[0]));
  EXPECT_EQ(cols[2], 99.f);
  EXPECT_EQ(cols[3], 1.f);
}

}  // namespace
}  // namespace stepline::ui
