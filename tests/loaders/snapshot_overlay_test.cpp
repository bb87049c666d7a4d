// AddMemorySnapshot: a snapshot's rows joined to a finalized trace of the
// same run (tests/data/memory_snapshots/make_snapshots.py writes both: the
// snapshot's first entry lies 5 ms after the trace's base time). The rows
// land on the trace's clock, the trace's own rows and span stay as they
// were, the model's invariants hold, and the memory table reads the
// snapshot's events alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "loaders/load.h"
#include "loaders/torch_snapshot/snapshot_overlay.h"
#include "model/memory_snapshot_process.h"
#include "model/memory_table.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

const std::string& OverlayPairDir() { return ::stepline::testing::GeneratedSnapshotsDir(); }

Trace OverlayLoad(const std::string& name) {
  auto r = LoadFile(OverlayPairDir() + "/" + name);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return r.ok() ? std::move(r).value() : Trace();
}

TEST(SnapshotOverlayTest, RowsLandOnTheTracesClock) {
  if (OverlayPairDir().empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot";
  Trace trace = OverlayLoad("pair_trace.json");
  const size_t tracks = trace.tracks().size(), instants = trace.instants().size(), slices = trace.slices().size();
  const TimeRange span = trace.span();
  ASSERT_EQ(EpochOfModelZero(trace), TimeNs{1759252583995000000});
  const SnapshotOverlay overlay = AddMemorySnapshot(&trace, "pair_trace.json", OverlayPairDir() + "/pair_snapshot.pickle");
  ASSERT_TRUE(overlay.error.empty()) << overlay.error;
  EXPECT_TRUE(overlay.notice.empty()) << overlay.notice;
  EXPECT_EQ(trace.CheckInvariants(), "");
  EXPECT_EQ(trace.tracks().size(), tracks + 1);  // "GPU 0 memory"
  EXPECT_EQ(trace.slices().size(), slices);
  EXPECT_EQ(trace.span().start_ns, span.start_ns);
  EXPECT_EQ(trace.span().end_ns, span.end_ns);
  // 1 segment_alloc + 4 entries in each of three steps.
  ASSERT_EQ(trace.instants().size(), instants + 13);
  const TrackId added = TrackId::FromIndex(tracks);
  EXPECT_EQ(trace.str(trace.tracks().name(added)), "GPU 0 memory");
  EXPECT_EQ(trace.str(trace.processes().name(trace.tracks().process(added))), kMemorySnapshotProcessName);
  const auto& r = trace.tracks().ranges(added);
  EXPECT_EQ(r.instant_end - r.instant_begin, 13u);
  // The segment_alloc at the first step's start: 5 ms after the base time.
  EXPECT_EQ(trace.instants().ts_ns()[r.instant_begin], 5'000'000);
  EXPECT_EQ(trace.instants().ts_ns()[r.instant_end - 1], 34'000'000);

  const MemoryTable table = BuildMemoryTable(trace);
  ASSERT_EQ(table.pools.size(), 1u);
  const MemoryPool& gpu0 = table.pools.front();
  EXPECT_EQ(gpu0.name, "GPU 0");
  EXPECT_EQ(gpu0.alloc_events, 6u);  // the trace's own 1 GiB event is not among them
  int64_t peak = 0;
  TimeNs peak_ns = 0;
  for (const MemorySample& s : gpu0.samples) {
    if (s.allocated > peak) peak = s.allocated, peak_ns = s.ts_ns;
  }
  EXPECT_EQ(peak, int64_t{112} << 20);
  EXPECT_EQ(peak_ns, 28'000'000);
}

TEST(SnapshotOverlayTest, TraceWithoutEpochClockIsLeftAlone) {
  if (OverlayPairDir().empty()) GTEST_SKIP() << "python3 is not available to write the trace and snapshot";
  Trace trace = OverlayLoad("pair_trace_no_clock.json");
  const size_t instants = trace.instants().size();
  EXPECT_FALSE(EpochOfModelZero(trace).has_value());
  const SnapshotOverlay overlay =
      AddMemorySnapshot(&trace, "pair_trace_no_clock.json", OverlayPairDir() + "/pair_snapshot.pickle");
  EXPECT_NE(overlay.error.find("not tied to the epoch clock"), std::string::npos) << overlay.error;
  EXPECT_EQ(trace.instants().size(), instants);
}

}  // namespace
}  // namespace stepline::loaders
