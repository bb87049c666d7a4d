// TraceBuilder: tracks by key, B/E matching and its diagnostics, flow
// chaining, correlation links, metadata renames.
#include "loaders/trace_builder.h"

#include <gtest/gtest.h>

namespace stepline::loaders {
namespace {

TEST(TraceBuilderTest, ThreadTracksAreFoundByPidTid) {
  TraceBuilder b("test");
  const TrackId t1 = b.ThreadTrack(1, 10);
  const TrackId t2 = b.ThreadTrack(1, 11);
  EXPECT_NE(t1, t2);
  EXPECT_EQ(b.ThreadTrack(1, 10), t1);
  EXPECT_NE(b.ThreadTrack(2, 10), t1);
  b.SetThreadName(1, 10, "main", 5);
  b.SetProcessName(1, "python", 6);
  Trace trace = b.Finish();
  EXPECT_EQ(trace.tracks().size(), 3u);
  EXPECT_EQ(trace.processes().size(), 2u);
  EXPECT_EQ(trace.str(trace.tracks().name(t1)), "main");
  EXPECT_EQ(trace.tracks().kind(t1), TrackKind::kHostThread);
  EXPECT_EQ(trace.info().format, "test");
}

TEST(TraceBuilderTest, BeginEndNestAndMergeArgs) {
  TraceBuilder b("test");
  const TrackId t = b.ThreadTrack(1, 1);
  const StringId k = b.Intern("k"), k2 = b.Intern("k2");
  const Arg begin_arg{k, ArgValue::Int(1)};
  const Arg end_arg{k2, ArgValue::Int(2)};
  b.BeginSlice(t, 100, b.Intern("outer"), StringId::None(), b.AddArgs({&begin_arg, 1}), 0);
  b.BeginSlice(t, 110, b.Intern("inner"), StringId::None(), ArgSetId::None(), 10);
  b.EndSlice(t, 120, ArgSetId::None(), 20);
  b.EndSlice(t, 200, b.AddArgs({&end_arg, 1}), 30);
  Trace trace = b.Finish();
  ASSERT_EQ(trace.CheckInvariants(), "");
  ASSERT_EQ(trace.slices().size(), 2u);
  EXPECT_EQ(trace.str(trace.slices().name()[0]), "outer");
  EXPECT_EQ(trace.slices().dur_ns()[0], 100);
  EXPECT_EQ(trace.slices().dur_ns()[1], 10);
  EXPECT_EQ(trace.slices().depth()[1], 1);
  ArgValue v;
  EXPECT_TRUE(trace.args().Find(trace.slices().arg_set()[0], k, &v));
  EXPECT_EQ(v.as_int(), 1);
  EXPECT_TRUE(trace.args().Find(trace.slices().arg_set()[0], k2, &v));
  EXPECT_EQ(v.as_int(), 2);
  EXPECT_TRUE(trace.diagnostics().empty());
}

TEST(TraceBuilderTest, UnmatchedEndAndBeginAreDiagnosed) {
  TraceBuilder b("test");
  const TrackId t = b.ThreadTrack(1, 1);
  b.EndSlice(t, 50, ArgSetId::None(), 111);  // nothing open
  b.BeginSlice(t, 100, b.Intern("never-ends"), StringId::None(), ArgSetId::None(), 222);
  b.BeginSlice(t, 150, b.Intern("done"), StringId::None(), ArgSetId::None(), 333);
  b.EndSlice(t, 180, ArgSetId::None(), 444);
  Trace trace = b.Finish();
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kUnmatchedEnd), 1u);
  EXPECT_EQ(trace.diagnostics().entry(DiagCode::kUnmatchedEnd).first_offset, 111u);
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kUnmatchedBegin), 1u);
  EXPECT_EQ(trace.diagnostics().entry(DiagCode::kUnmatchedBegin).first_offset, 222u);
  // The open slice is closed at the last time seen on its track.
  EXPECT_EQ(trace.slices().dur_ns()[0], 80);
}

TEST(TraceBuilderTest, EndBeforeBeginIsClampedAndReported) {
  TraceBuilder b("test");
  const TrackId t = b.ThreadTrack(1, 1);
  b.BeginSlice(t, 100, b.Intern("x"), StringId::None(), ArgSetId::None(), 0);
  b.EndSlice(t, 90, ArgSetId::None(), 9);
  Trace trace = b.Finish();
  EXPECT_EQ(trace.slices().dur_ns()[0], 0);
  EXPECT_EQ(trace.diagnostics().entry(DiagCode::kNegativeDuration).first_offset, 9u);
}

TEST(TraceBuilderTest, FlowEventsChainThroughSteps) {
  TraceBuilder b("test");
  const TrackId a = b.ThreadTrack(1, 1), c = b.ThreadTrack(1, 2), d = b.ThreadTrack(1, 3);
  b.AddSlice({a, 0, 100, b.Intern("A"), StringId::None(), ArgSetId::None(), GpuKind::kNone});
  b.AddSlice({c, 200, 100, b.Intern("C"), StringId::None(), ArgSetId::None(), GpuKind::kNone});
  b.AddSlice({d, 500, 100, b.Intern("D"), StringId::None(), ArgSetId::None(), GpuKind::kNone});
  const StringId cat = b.Intern("task");
  using P = TraceBuilder::FlowPhase;
  b.AddFlowEvent(P::kStart, 7, cat, StringId::None(), a, 50, false, FlowKind::kGeneric, 1);
  b.AddFlowEvent(P::kStep, 7, cat, StringId::None(), c, 250, false, FlowKind::kGeneric, 2);
  // End without bp:"e" binds to the next slice starting at/after ts.
  b.AddFlowEvent(P::kEnd, 7, cat, StringId::None(), d, 400, false, FlowKind::kGeneric, 3);
  b.AddFlowEvent(P::kEnd, 8, cat, StringId::None(), d, 400, false, FlowKind::kGeneric, 4);  // no start
  b.AddFlowEvent(P::kStart, 9, cat, StringId::None(), a, 50, false, FlowKind::kGeneric, 5);  // no end
  Trace trace = b.Finish();
  ASSERT_EQ(trace.flows().size(), 2u);
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().from()[0].index()]), "A");
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().to()[0].index()]), "C");
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().from()[1].index()]), "C");
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().to()[1].index()]), "D");
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kUnmatchedFlow), 2u);
  EXPECT_EQ(trace.diagnostics().entry(DiagCode::kUnmatchedFlow).first_offset, 4u);
}

TEST(TraceBuilderTest, CorrelationLinksLaunchToEveryActivity) {
  TraceBuilder b("test");
  const TrackId host = b.ThreadTrack(1, 1), stream = b.ThreadTrack(0, 7);
  b.SetTrackKind(stream, TrackKind::kGpuStream, 0);
  const SliceId launch = b.AddSlice({host, 0, 10, b.Intern("cudaGraphLaunch"), {}, {}, GpuKind::kNone});
  const SliceId k1 = b.AddSlice({stream, 20, 5, b.Intern("k1"), {}, {}, GpuKind::kKernel});
  const SliceId k2 = b.AddSlice({stream, 30, 5, b.Intern("k2"), {}, {}, GpuKind::kKernel});
  const SliceId orphan = b.AddSlice({stream, 40, 5, b.Intern("k3"), {}, {}, GpuKind::kKernel});
  b.NoteLaunch(42, launch);
  b.NoteDeviceActivity(42, k1);
  b.NoteDeviceActivity(42, k2);
  b.NoteDeviceActivity(43, orphan);
  Trace trace = b.Finish();
  ASSERT_EQ(trace.flows().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(trace.flows().kind()[i], FlowKind::kLaunch);
    EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().from()[i].index()]), "cudaGraphLaunch");
    EXPECT_EQ(trace.flows().flow_id()[i], 42u);
  }
  EXPECT_EQ(trace.tracks().device_id(stream), 0);
}

TEST(TraceBuilderTest, RenamesAreDiagnosedAndLastNameWins) {
  TraceBuilder b("test");
  b.SetProcessName(5, "first", 10);
  b.SetProcessName(5, "first", 20);  // same name again: not a conflict
  b.SetProcessName(5, "second", 30);
  Trace trace = b.Finish();
  EXPECT_EQ(trace.diagnostics().count(DiagCode::kDuplicateMetadata), 1u);
  EXPECT_EQ(trace.diagnostics().entry(DiagCode::kDuplicateMetadata).first_offset, 30u);
  EXPECT_EQ(trace.str(trace.processes().name(ProcessId(0))), "second");
}

TEST(TraceBuilderTest, AsyncCounterAndMarkerTracksAreKeyed) {
  TraceBuilder b("test");
  const StringId cat = b.Intern("input");
  const TrackId a1 = b.AsyncTrack(1, cat, 0x10, b.Intern("Latency"));
  EXPECT_EQ(b.AsyncTrack(1, cat, 0x10, b.Intern("Other")), a1);
  EXPECT_NE(b.AsyncTrack(1, cat, 0x11, StringId::None()), a1);
  const TrackId c = b.CounterTrack(1, "mem bytes");
  EXPECT_EQ(b.CounterTrack(1, "mem bytes"), c);
  EXPECT_NE(b.CounterTrack(2, "mem bytes"), c);
  const TrackId g = b.MarkerTrack(kGlobalPid);
  EXPECT_EQ(b.MarkerTrack(kGlobalPid), g);
  Trace trace = b.Finish();
  EXPECT_EQ(trace.tracks().kind(a1), TrackKind::kAsync);
  EXPECT_EQ(trace.str(trace.tracks().name(a1)), "Latency");
  EXPECT_EQ(trace.tracks().kind(c), TrackKind::kCounter);
  EXPECT_EQ(trace.tracks().kind(g), TrackKind::kMarkers);
}

}  // namespace
}  // namespace stepline::loaders

namespace stepline::loaders {
namespace {

// Regression (hta/trace_diff_control): an ac2g flow start at the same
// timestamp as a zero-length runtime call nested in cudaLaunchKernel bound to
// the nested call by time; with the correlation id known it must start at the
// launch itself.
TEST(TraceBuilderTest, LaunchFlowStartsAtTheCorrelatedLaunchCall) {
  TraceBuilder b("test");
  const TrackId host = b.ThreadTrack(1, 1), stream = b.ThreadTrack(0, 7);
  const SliceId launch = b.AddSlice({host, 100, 50, b.Intern("cudaLaunchKernel"), {}, {}, GpuKind::kNone});
  b.AddSlice({host, 100, 0, b.Intern("cudaFuncSetAttribute"), {}, {}, GpuKind::kNone});
  const SliceId kernel = b.AddSlice({stream, 200, 10, b.Intern("k"), {}, {}, GpuKind::kKernel});
  b.NoteLaunch(5, launch);
  b.NoteDeviceActivity(5, kernel);
  const StringId ac2g = b.Intern("ac2g");
  using P = TraceBuilder::FlowPhase;
  b.AddFlowEvent(P::kStart, 5, ac2g, ac2g, host, 100, false, FlowKind::kLaunch, 1);
  b.AddFlowEvent(P::kEnd, 5, ac2g, ac2g, stream, 200, true, FlowKind::kLaunch, 2);
  Trace trace = b.Finish();
  ASSERT_EQ(trace.flows().size(), 1u);  // the ac2g flow and the correlation link are one arrow
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().from()[0].index()]), "cudaLaunchKernel");
  EXPECT_EQ(trace.str(trace.slices().name()[trace.flows().to()[0].index()]), "k");
}

}  // namespace
}  // namespace stepline::loaders
