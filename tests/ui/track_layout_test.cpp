// Track layout (order, groups, collapse, pin, hide, copy rows) and
// hit-testing, on a small hand-built trace.
#include "ui/timeline/track_layout.h"

#include <gtest/gtest.h>

#include "ui/timeline/hit_test.h"

namespace stepline::ui {
namespace {

struct LayoutFixture {
  Trace trace;
  ProcessId host, gpu;
  TrackId thread, stream_a, stream_b, counter;
  explicit LayoutFixture(int32_t gpu_sort_index = 0) {
    StringPool& s = trace.mutable_strings();
    gpu = trace.mutable_processes().Append({0, s.Intern("GPU"), gpu_sort_index, 0});
    host = trace.mutable_processes().Append({100, s.Intern("python"), 0, -1});
    stream_a = trace.mutable_tracks().Append({TrackKind::kGpuStream, gpu, 7, s.Intern("stream 7"), 0, 0, {}});
    thread = trace.mutable_tracks().Append({TrackKind::kHostThread, host, 1, s.Intern("main"), 0, -1, {}});
    stream_b = trace.mutable_tracks().Append({TrackKind::kGpuStream, gpu, 8, s.Intern("stream 8"), 0, 0, {}});
    counter = trace.mutable_tracks().Append({TrackKind::kCounter, host, 0, s.Intern("mem"), 0, -1, {}});
    SliceTable& t = trace.mutable_slices();
    t.Append({thread, 0, 100, s.Intern("step"), {}, {}, GpuKind::kNone});
    t.Append({thread, 10, 10, s.Intern("op"), {}, {}, GpuKind::kNone});
    // Two overlapping H2D copies on different streams need two lanes.
    t.Append({stream_a, 0, 50, s.Intern("Memcpy HtoD"), {}, {}, GpuKind::kMemcpyH2D});
    t.Append({stream_b, 20, 50, s.Intern("Memcpy HtoD"), {}, {}, GpuKind::kMemcpyH2D});
    t.Append({stream_b, 80, 10, s.Intern("kernel"), {}, {}, GpuKind::kKernel});
    trace.mutable_counters().Append(counter, 5, 1.0);
    trace.Finalize();
  }
  TrackLayout Layout(const LayoutChoices& choices = {}) {
    TrackDepthIndex depths(trace);
    CopyRows copies(trace);
    return ComputeTrackLayout(trace, depths, copies, choices, LayoutMetrics{10.f, 20.f, 30.f, 2.f});
  }
};

// Devices come first whatever their sort index: the GPU rows are what the
// viewer is for and must not start below a tall host group.
TEST(TrackLayoutTest, DeviceGroupFirstWithCopyRowsThenHost) {
  LayoutFixture f;
  const TrackLayout layout = f.Layout();
  ASSERT_EQ(layout.rows.size(), 7u);
  EXPECT_EQ(layout.rows[0].kind, RowKind::kGroupHeader);
  EXPECT_EQ(layout.rows[0].process, f.gpu);
  EXPECT_EQ(layout.rows[0].event_count, 3u);
  EXPECT_EQ(layout.rows[1].track, f.stream_a);
  EXPECT_EQ(layout.rows[2].track, f.stream_b);
  EXPECT_EQ(layout.rows[3].kind, RowKind::kCopyRow);
  EXPECT_EQ(layout.rows[3].copy.kind, GpuKind::kMemcpyH2D);
  EXPECT_EQ(layout.rows[3].levels, 2);  // overlapping copies -> two lanes
  EXPECT_EQ(layout.rows[3].event_count, 2u);
  EXPECT_EQ(layout.rows[4].kind, RowKind::kGroupHeader);
  EXPECT_EQ(layout.rows[4].process, f.host);
  EXPECT_EQ(layout.rows[5].track, f.thread);
  EXPECT_EQ(layout.rows[5].levels, 2);        // two nesting levels
  EXPECT_FLOAT_EQ(layout.rows[5].height, 20.f);
  EXPECT_EQ(layout.rows[6].track, f.counter);  // counters after threads
  EXPECT_FLOAT_EQ(layout.rows[6].height, 30.f);
  // Rows are stacked without overlap.
  for (size_t i = 1; i < layout.rows.size(); ++i) {
    EXPECT_GE(layout.rows[i].y, layout.rows[i - 1].y + layout.rows[i - 1].height);
  }
  EXPECT_GT(layout.total_height, layout.rows.back().y);
}

// A device still comes first when the trace gives the host a lower sort
// index (Kineto puts its GPU processes last).
TEST(TrackLayoutTest, DeviceFirstEvenWhenTheHostSortsBefore) {
  LayoutFixture f(5'000'000);
  const TrackLayout layout = f.Layout();
  ASSERT_FALSE(layout.rows.empty());
  EXPECT_EQ(layout.rows[0].process, f.gpu);
}

// XProf's derived device rows (Steps, TensorFlow Ops, ...) come after the
// streams and the gathered copy rows, never between streams.
TEST(TrackLayoutTest, DerivedDeviceRowsFollowStreamsAndCopyRows) {
  Trace trace;
  StringPool& s = trace.mutable_strings();
  const ProcessId gpu = trace.mutable_processes().Append({1, s.Intern("/device:GPU:0"), 0, 0});
  const TrackId steps = trace.mutable_tracks().Append({TrackKind::kGpuDerived, gpu, 1, s.Intern("Steps"), 0, 0, {}});
  const TrackId stream = trace.mutable_tracks().Append({TrackKind::kGpuStream, gpu, 7, s.Intern("Stream #7"), 1, 0, {}});
  trace.mutable_slices().Append({steps, 0, 100, s.Intern("0"), {}, {}, GpuKind::kNone});
  trace.mutable_slices().Append({stream, 0, 10, s.Intern("Memcpy HtoD"), {}, {}, GpuKind::kMemcpyH2D});
  trace.Finalize();
  TrackDepthIndex depths(trace);
  CopyRows copies(trace);
  const TrackLayout layout = ComputeTrackLayout(trace, depths, copies, {}, LayoutMetrics{10.f, 20.f, 30.f, 2.f});
  ASSERT_EQ(layout.rows.size(), 4u);
  EXPECT_EQ(layout.rows[1].track, stream);
  EXPECT_EQ(layout.rows[2].kind, RowKind::kCopyRow);
  EXPECT_EQ(layout.rows[3].track, steps);
}

TEST(TrackLayoutTest, CollapsePinAndHide) {
  LayoutFixture f;
  LayoutChoices choices;
  choices.collapsed_processes.insert(f.gpu.value);
  choices.pinned_tracks.insert(f.stream_b.value);
  choices.hidden_tracks.insert(f.counter.value);
  const TrackLayout layout = f.Layout(choices);
  // Pinned group (header + stream_b), GPU header only (collapsed), host (header + thread).
  ASSERT_EQ(layout.rows.size(), 5u);
  EXPECT_TRUE(layout.rows[0].process.is_none());
  EXPECT_EQ(layout.rows[0].event_count, 2u);  // the pinned stream's kernel and copy
  EXPECT_EQ(layout.rows[1].track, f.stream_b);
  EXPECT_TRUE(layout.rows[1].pinned);
  EXPECT_EQ(layout.rows[2].kind, RowKind::kGroupHeader);
  EXPECT_TRUE(layout.rows[2].collapsed);
  EXPECT_EQ(layout.rows[3].process, f.host);
  EXPECT_EQ(layout.rows[4].track, f.thread);
}

// A pinned track is shown once, in the pinned group, not again in its own.
TEST(TrackLayoutTest, PinnedTrackIsNotRepeatedInItsGroup) {
  LayoutFixture f;
  LayoutChoices choices;
  choices.pinned_tracks.insert(f.stream_b.value);
  const TrackLayout layout = f.Layout(choices);
  int shown = 0;
  for (const LayoutRow& row : layout.rows) shown += row.kind == RowKind::kSliceTrack && row.track == f.stream_b;
  EXPECT_EQ(shown, 1);
}

TEST(HitTestTest, RowAtYAndItemAtX) {
  LayoutFixture f;
  const TrackLayout layout = f.Layout();
  EXPECT_EQ(RowAtY(layout, -1.f), -1);
  EXPECT_EQ(RowAtY(layout, 0.f), 0);
  EXPECT_EQ(RowAtY(layout, layout.rows[5].y + 15.f), 5);  // the two-level host thread
  EXPECT_EQ(RowAtY(layout, layout.rows[5].y + layout.rows[5].height + 1.f), -1);  // in the gap
  EXPECT_EQ(RowAtY(layout, layout.total_height + 100.f), -1);
  std::vector<SliceDrawItem> items = {{10.f, 50.f, 0, 1, SliceId(0)}, {20.f, 20.5f, 1, 1, SliceId(1)}};
  EXPECT_EQ(ItemAtX(items, 0, 30.f), 0);
  EXPECT_EQ(ItemAtX(items, 1, 30.f), -1);
  EXPECT_EQ(ItemAtX(items, 1, 21.f), 1);   // thin item hit within the slop
  EXPECT_EQ(ItemAtX(items, 0, 50.f), -1);  // right edge exclusive
}

TEST(TrackLayoutTest, LabelsNameDevicesAndStreams) {
  LayoutFixture f;
  EXPECT_EQ(ProcessLabel(f.trace, f.gpu), "GPU 0  GPU");
  EXPECT_EQ(TrackLabel(f.trace, f.stream_a), "stream 7");
}

}  // namespace
}  // namespace stepline::ui
