// Trace::Finalize(): sorting, depth/parents, ranges, flows, span, invariants.
#include "model/trace.h"

#include <gtest/gtest.h>

#include "tests/model/trace_test_fixture.h"

namespace stepline {
namespace {

TEST_F(TraceTest, SortsPerTrackAndComputesDepth) {
  const TrackId t0 = AddTrack(10), t1 = AddTrack(11);
  // Appended out of order and interleaved across tracks.
  Slice(t1, 500, 10, "t1-b");
  Slice(t0, 150, 20, "child2");
  Slice(t0, 100, 100, "root");
  Slice(t1, 100, 10, "t1-a");
  Slice(t0, 110, 30, "child1");
  Slice(t0, 110, 5, "grandchild");  // same start as child1, shorter: nested in it
  Slice(t0, 200, 0, "instant-at-root-end");
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");

  const auto& r0 = trace_.tracks().ranges(t0);
  const auto& r1 = trace_.tracks().ranges(t1);
  EXPECT_EQ(r0.slice_begin, 0u);
  EXPECT_EQ(r0.slice_end, 5u);
  EXPECT_EQ(r1.slice_begin, 5u);
  EXPECT_EQ(r1.slice_end, 7u);
  EXPECT_EQ(NameAt(0), "root");
  EXPECT_EQ(NameAt(1), "child1");
  EXPECT_EQ(NameAt(2), "grandchild");
  EXPECT_EQ(NameAt(3), "child2");
  EXPECT_EQ(NameAt(4), "instant-at-root-end");
  EXPECT_EQ(NameAt(5), "t1-a");
  const auto depth = trace_.slices().depth();
  const auto parent = trace_.slices().parent();
  EXPECT_EQ(depth[0], 0);
  EXPECT_EQ(depth[1], 1);
  EXPECT_EQ(depth[2], 2);
  EXPECT_EQ(depth[3], 1);
  EXPECT_EQ(depth[4], 0);  // starts where root ends: a sibling, not a child
  EXPECT_EQ(parent[2], SliceId(1));
  EXPECT_EQ(parent[3], SliceId(0));
  EXPECT_TRUE(parent[4].is_none());
  EXPECT_EQ(r0.max_depth, 3);
  EXPECT_EQ(r1.max_depth, 1);
  EXPECT_EQ(trace_.span(), (TimeRange{100, 510}));
  EXPECT_TRUE(trace_.diagnostics().empty());
}

TEST_F(TraceTest, PartialOverlapIsNestedAndReported) {
  const TrackId t = AddTrack(1);
  Slice(t, 0, 100, "a");
  Slice(t, 50, 100, "b");  // ends after a
  trace_.Finalize();
  EXPECT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(trace_.slices().depth()[1], 1);
  EXPECT_EQ(trace_.slices().dur_ns()[1], 100);  // true duration kept
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kOverlappingSlices), 1u);
}

// Programmatic dependent launch: on a GPU stream the later kernel starts
// before the earlier one ends. Neither is the other's child: the later one
// takes the next lane with no parent, and the overlap is information.
TEST_F(TraceTest, OverlappingWorkOnAGpuStreamTakesTheNextLaneWithoutAParent) {
  const TrackId t = AddTrack(7);
  trace_.mutable_tracks().set_kind(t, TrackKind::kGpuStream);
  Slice(t, 0, 100, "k1");
  Slice(t, 50, 100, "k2");   // overlaps k1's last 50 ns
  Slice(t, 160, 10, "k3");   // after both: back in the first lane
  trace_.Finalize();
  EXPECT_EQ(trace_.CheckInvariants(), "");
  const SliceTable& s = trace_.slices();
  EXPECT_EQ(s.depth()[1], 1);
  EXPECT_TRUE(s.parent()[1].is_none());
  EXPECT_EQ(s.dur_ns()[0], 100);
  EXPECT_EQ(s.depth()[2], 0);
  EXPECT_EQ(trace_.tracks().ranges(t).max_depth, 2);
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kOverlappingSlices), 0u);
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kOverlappingDeviceWork), 1u);
  EXPECT_EQ(GetDiagCodeInfo(DiagCode::kOverlappingDeviceWork).severity, Severity::kInfo);
}

TEST_F(TraceTest, FindEnclosingSliceWalksUpParents) {
  const TrackId t = AddTrack(1);
  Slice(t, 0, 100, "root");
  Slice(t, 10, 10, "early-child");
  Slice(t, 60, 0, "zero");
  trace_.Finalize();
  EXPECT_EQ(NameAt(trace_.FindEnclosingSlice(t, 15).value), "early-child");
  EXPECT_EQ(NameAt(trace_.FindEnclosingSlice(t, 30).value), "root");  // after early-child ended
  EXPECT_EQ(NameAt(trace_.FindEnclosingSlice(t, 60).value), "zero");   // zero-length slice at its start
  EXPECT_TRUE(trace_.FindEnclosingSlice(t, 100).is_none());            // end is exclusive
  EXPECT_TRUE(trace_.FindEnclosingSlice(t, -1).is_none());
}

// Rows already grouped by track and in time order (as the XSpace loader
// writes them) skip the permutation: every column, arg set and flow endpoint
// must come out exactly as appended, with depth and parents still computed.
TEST_F(TraceTest, AlreadySortedRowsStayInPlace) {
  const TrackId t0 = AddTrack(10), t1 = AddTrack(11);
  const SliceId root = Slice(t0, 100, 100, "root");
  const SliceId child = Slice(t0, 110, 30, "child");
  const SliceId kernel = Slice(t1, 150, 10, "kernel");
  const ArgSetId args = trace_.mutable_args().AddSet(
      std::vector<Arg>{Arg{trace_.mutable_strings().Intern("k"), ArgValue::Int(7)}});
  trace_.mutable_slices().set_arg_set(child, args);
  FlowTable::Pending launch;
  launch.from = FlowEndpoint::OfSlice(child);
  launch.to = FlowEndpoint::OfSlice(kernel);
  launch.kind = FlowKind::kLaunch;
  trace_.mutable_flows().AddPending(launch);
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(NameAt(root.value), "root");
  EXPECT_EQ(NameAt(child.value), "child");
  EXPECT_EQ(NameAt(kernel.value), "kernel");
  EXPECT_EQ(trace_.slices().arg_set()[child.value], args);
  EXPECT_EQ(trace_.slices().arg_set()[root.value], ArgSetId());
  EXPECT_EQ(trace_.slices().parent()[child.value], root);
  EXPECT_EQ(trace_.slices().depth()[child.value], 1);
  ASSERT_EQ(trace_.flows().size(), 1u);
  EXPECT_EQ(trace_.flows().from()[0], child);
  EXPECT_EQ(trace_.flows().to()[0], kernel);
  EXPECT_EQ(trace_.tracks().ranges(t1).slice_begin, 2u);
}

TEST_F(TraceTest, FlowsAreBoundRemappedAndDeduplicated) {
  const TrackId host = AddTrack(1), gpu = AddTrack(2);
  const SliceId kernel = Slice(gpu, 300, 50, "kernel");
  const SliceId launch = Slice(host, 100, 20, "cudaLaunchKernel");
  Slice(host, 0, 1000, "step");  // appended last, sorts first on its track
  FlowTable& flows = trace_.mutable_flows();
  FlowTable::Pending by_id;
  by_id.from = FlowEndpoint::OfSlice(launch);
  by_id.to = FlowEndpoint::OfSlice(kernel);
  by_id.kind = FlowKind::kLaunch;
  flows.AddPending(by_id);
  FlowTable::Pending by_time = by_id;  // the same link stated by ac2g s/f events
  by_time.from = FlowEndpoint::Enclosing(host, 100);
  by_time.to = FlowEndpoint::Enclosing(gpu, 300);
  flows.AddPending(by_time);
  FlowTable::Pending next = by_id;
  next.kind = FlowKind::kGeneric;
  next.from = FlowEndpoint::Enclosing(host, 500);  // binds to "step"
  next.to = FlowEndpoint::Next(gpu, 250);          // first slice at/after 250: kernel
  flows.AddPending(next);
  FlowTable::Pending dangling = by_id;
  dangling.to = FlowEndpoint::Next(gpu, 400);  // nothing starts after 400
  dangling.byte_offset = 77;
  flows.AddPending(dangling);
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  const FlowTable& f = trace_.flows();
  ASSERT_EQ(f.size(), 2u);
  // Rows sorted by from: "step" (row 0) then the launch (row 1).
  EXPECT_EQ(NameAt(f.from()[0].value), "step");
  EXPECT_EQ(f.kind()[0], FlowKind::kGeneric);
  EXPECT_EQ(NameAt(f.from()[1].value), "cudaLaunchKernel");
  EXPECT_EQ(NameAt(f.to()[1].value), "kernel");
  EXPECT_EQ(f.kind()[1], FlowKind::kLaunch);
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kUnboundFlow), 1u);
  EXPECT_EQ(trace_.diagnostics().entry(DiagCode::kUnboundFlow).first_offset, 77u);
}

// Launch links (both ends known) merge with pending flows: renumbered when
// Finalize reorders the slices, sorted again, the named duplicate kept.
TEST_F(TraceTest, LaunchLinksAreRenumberedMergedAndDeduplicated) {
  const TrackId host = AddTrack(1), gpu = AddTrack(2);
  const SliceId late = Slice(host, 500, 10, "late launch");   // row 0, sorts after `early`
  const SliceId early = Slice(host, 100, 10, "early launch");  // row 1
  const SliceId k1 = Slice(gpu, 600, 5, "k1");
  const SliceId k2 = Slice(gpu, 200, 5, "k2");
  FlowTable& flows = trace_.mutable_flows();
  flows.AddLaunchLink(late, k1, 7);   // added in (from, to) order of the
  flows.AddLaunchLink(early, k2, 3);  // pre-Finalize ids
  flows.AddLaunchLink(early, SliceId(99), 4);  // no such slice: unbound
  FlowTable::Pending named;
  named.from = FlowEndpoint::OfSlice(early);
  named.to = FlowEndpoint::OfSlice(k2);
  named.kind = FlowKind::kLaunch;
  named.name = named.category = trace_.mutable_strings().Intern("ac2g");
  named.flow_id = 3;
  flows.AddPending(named);
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  const FlowTable& f = trace_.flows();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(NameAt(f.from()[0].value), "early launch");
  EXPECT_EQ(NameAt(f.to()[0].value), "k2");
  EXPECT_EQ(trace_.str(f.name()[0]), "ac2g");  // the named statement of the same link
  EXPECT_EQ(f.flow_id()[0], 3u);
  EXPECT_EQ(NameAt(f.from()[1].value), "late launch");
  EXPECT_EQ(NameAt(f.to()[1].value), "k1");
  EXPECT_TRUE(f.name()[1].is_none());
  EXPECT_EQ(f.flow_id()[1], 7u);
  EXPECT_EQ(f.kind()[1], FlowKind::kLaunch);
  EXPECT_LT(f.from()[0], f.from()[1]);
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kUnboundFlow), 1u);
}

// Rows already grouped by track and in time order (how the XSpace loader
// writes them) keep their ids; a same-start pair with the shorter one first is
// not in final order and is sorted (parent first).
TEST_F(TraceTest, SlicesAlreadyInOrderKeepTheirIds) {
  const TrackId host = AddTrack(1), gpu = AddTrack(2);
  const SliceId step = Slice(host, 0, 1000, "step");
  const SliceId launch = Slice(host, 100, 20, "launch");
  const SliceId kernel = Slice(gpu, 300, 50, "kernel");
  trace_.mutable_flows().AddLaunchLink(launch, kernel, 1);
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(NameAt(step.value), "step");
  EXPECT_EQ(NameAt(launch.value), "launch");
  EXPECT_EQ(NameAt(kernel.value), "kernel");
  EXPECT_EQ(trace_.slices().parent()[launch.value], step);
  EXPECT_EQ(trace_.tracks().ranges(gpu).slice_begin, 2u);
  EXPECT_EQ(trace_.tracks().ranges(gpu).slice_end, 3u);
  ASSERT_EQ(trace_.flows().size(), 1u);
  EXPECT_EQ(trace_.flows().from()[0], launch);
  EXPECT_EQ(trace_.flows().to()[0], kernel);
}

TEST_F(TraceTest, SameStartShorterFirstIsReordered) {
  const TrackId host = AddTrack(1);
  Slice(host, 100, 10, "child");
  Slice(host, 100, 50, "parent");
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(NameAt(0), "parent");
  EXPECT_EQ(NameAt(1), "child");
  EXPECT_EQ(trace_.slices().depth()[1], 1);
}

// Over 2^20 slices the tracks are nested on two threads: depths, parents and
// the overlap count (with the first overlapping slice) must not depend on it.
TEST_F(TraceTest, LargeTracesNestTheSameOnTwoThreads) {
  constexpr int kTracks = 4, kGroups = 150'000;  // 3 slices a group: 1.8M slices
  std::vector<TrackId> tracks;
  for (int t = 0; t < kTracks; ++t) tracks.push_back(AddTrack(t));
  for (int t = 0; t < kTracks; ++t) {
    for (int g = 0; g < kGroups; ++g) {
      const TimeNs at = TimeNs{g} * 100;
      Slice(tracks[t], at, 50, "outer");
      Slice(tracks[t], at + 10, 20, "inner");
      // Track 3 (second thread's half): every 1000th group's last slice runs
      // past its parent "inner" (ends at 40 > 30).
      const bool overlap = t == 3 && g % 1000 == 0;
      Slice(tracks[t], at + 20, overlap ? 20 : 5, overlap ? "overlap" : "leaf");
    }
  }
  trace_.Finalize();
  ASSERT_EQ(trace_.CheckInvariants(), "");
  const SliceTable& s = trace_.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    const uint32_t k = static_cast<uint32_t>(i % 3);
    ASSERT_EQ(s.depth()[i], k) << i;
    ASSERT_EQ(s.parent()[i], k == 0 ? SliceId::None() : SliceId(static_cast<uint32_t>(i - 1))) << i;
  }
  for (TrackId t : tracks) EXPECT_EQ(trace_.tracks().ranges(t).max_depth, 3);
  EXPECT_EQ(trace_.diagnostics().count(DiagCode::kOverlappingSlices), kGroups / 1000u);
  // The first one: track 3's group 0, starting at 20 ns.
  const auto& instances = trace_.diagnostics().entry(DiagCode::kOverlappingSlices).instances;
  ASSERT_FALSE(instances.empty());
  EXPECT_EQ(instances[0].detail, "first: slice \"overlap\" at 20 ns");
}

TEST_F(TraceTest, InstantsAndCountersSortedWithRanges) {
  const TrackId t = AddTrack(1), c = AddTrack(2);
  trace_.mutable_instants().Append({t, 30, StringId::None(), StringId::None(), ArgSetId::None()});
  trace_.mutable_instants().Append({t, 10, StringId::None(), StringId::None(), ArgSetId::None()});
  trace_.mutable_counters().Append(c, 5, 1.0);
  trace_.mutable_counters().Append(c, 2, 2.0);
  trace_.Finalize();
  EXPECT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(trace_.instants().ts_ns()[0], 10);
  EXPECT_EQ(trace_.counters().ts_ns()[0], 2);
  EXPECT_DOUBLE_EQ(trace_.counters().value()[0], 2.0);
  EXPECT_EQ(trace_.tracks().ranges(c).counter_begin, 0u);
  EXPECT_EQ(trace_.tracks().ranges(c).counter_end, 2u);
  EXPECT_EQ(trace_.tracks().ranges(t).instant_end, 2u);
  EXPECT_EQ(trace_.span(), (TimeRange{2, 30}));
}

TEST_F(TraceTest, LargeTraceSortsAcrossThreads) {
  // Enough rows to take the two-thread path of SortWithinTracks.
  const TrackId a = AddTrack(1), b = AddTrack(2);
  constexpr int kN = 700000;
  for (int i = kN; i > 0; --i) {
    Slice(a, i * 10, 5, "a");
    Slice(b, i * 10, 5, "b");
  }
  trace_.Finalize();
  EXPECT_EQ(trace_.CheckInvariants(), "");
  EXPECT_EQ(trace_.slices().start_ns()[0], 10);
  EXPECT_EQ(trace_.tracks().ranges(b).slice_begin, static_cast<uint32_t>(kN));
}

// Loaders pre-fault what they reserved (model/page_prefault.h): every
// column, including depth/parent that Finalize() fills, must be listed with
// at least the reserved room, and Finalize() must fill them in place.
TEST_F(TraceTest, ReservedStorageCoversEveryColumn) {
  const TrackId t = AddTrack(1);
  trace_.mutable_slices().Reserve(1000);
  const auto blocks = trace_.slices().ReservedStorage();
  ASSERT_EQ(blocks.size(), 8u);  // track, start, dur, name, category, gpu_kind, depth, parent
  for (const auto& [address, bytes] : blocks) {
    EXPECT_NE(address, nullptr);
    EXPECT_GE(bytes, 1000u);  // the narrowest column (gpu_kind) has a byte per row
  }
  Slice(t, 0, 10, "a");
  Slice(t, 2, 3, "b");
  const void* depth_before = blocks[6].first;
  trace_.Finalize();
  EXPECT_EQ(static_cast<const void*>(trace_.slices().depth().data()), depth_before);
  EXPECT_EQ(trace_.slices().depth()[1], 1);
}

TEST_F(TraceTest, EmptyTraceFinalizes) {
  trace_.Finalize();
  EXPECT_EQ(trace_.CheckInvariants(), "");
  EXPECT_TRUE(trace_.span().empty());
}

}  // namespace
}  // namespace stepline
