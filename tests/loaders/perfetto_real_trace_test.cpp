// The shared Perfetto trace loads with the facts a second implementation
// found in the raw bytes: tests/data/perfetto_facts.py (a hand-written wire
// decoder, no protobuf library, no Stepline code) printed the numbers
// asserted here. Re-run it with
//   python3 tests/data/perfetto_facts.py ../shared/traces/perfetto/scrolling_with_blocked_nonblocked_frames.pftrace
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "loaders/load.h"
#include "loaders/trace_builder.h"
#include "tests/support/test_traces.h"

namespace stepline::testing {
namespace {

constexpr const char* kFile = "perfetto/scrolling_with_blocked_nonblocked_frames.pftrace";

// perfetto_facts.py output.
constexpr uint64_t kSliceBegins = 34119;
constexpr uint64_t kSliceEnds = 34113;
constexpr uint64_t kInstants = 7797;
constexpr uint64_t kInstantsWithFlows = 6005;
constexpr uint64_t kUntypedEvents = 222;
constexpr uint64_t kExtraCounterValues = 68181;
constexpr uint64_t kThreads = 40;          // distinct (pid, tid) of thread descriptors
constexpr uint64_t kCounterTracks = 40;    // counter descriptors
constexpr uint64_t kFlowArrows = 5965;
const std::map<int64_t, std::string> kProcesses = {
    {27907, "Browser"}, {27917, "Browser"}, {30416, "Renderer"}, {30433, "GPU Process"}, {30988, "Renderer"}};

// Skips when the shared traces, or this one trace in them, are absent.
#define REQUIRE_PERFETTO_TRACE()                                                                 \
  STEPLINE_REQUIRE_SHARED_TRACES();                                                              \
  if (!std::filesystem::exists(SharedTracePath(kFile)))                                          \
  GTEST_SKIP() << "shared trace " << kFile << " not found under " << SharedTracesDir()           \
               << " (set STEPLINE_TRACES to point at the traces); real-trace test skipped"

uint64_t CountTracks(const Trace& t, TrackKind kind) {
  uint64_t n = 0;
  for (size_t i = 0; i < t.tracks().size(); ++i) n += t.tracks().kind(TrackId::FromIndex(i)) == kind;
  return n;
}

Trace LoadShared() {
  auto r = loaders::LoadFile(SharedTracePath(kFile));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return std::move(r).value();
}

TEST(PerfettoRealTrace, MatchesIndependentlyCountedFacts) {
  REQUIRE_PERFETTO_TRACE();
  const Trace t = LoadShared();
  EXPECT_EQ(t.CheckInvariants(), "");
  EXPECT_EQ(t.info().format, "perfetto");
  // Every BEGIN is a slice, and so is every INSTANT that carries a flow.
  EXPECT_EQ(t.slices().size(), kSliceBegins + kInstantsWithFlows);
  EXPECT_EQ(t.instants().size(), kInstants - kInstantsWithFlows);
  // Every END closes a BEGIN except the unmatched ones, and vice versa.
  const Diagnostics& d = t.diagnostics();
  EXPECT_EQ(kSliceBegins - d.count(DiagCode::kUnmatchedBegin), kSliceEnds - d.count(DiagCode::kUnmatchedEnd));
  EXPECT_EQ(t.counters().size(), kExtraCounterValues);
  EXPECT_EQ(t.flows().size(), kFlowArrows);
  EXPECT_EQ(CountTracks(t, TrackKind::kHostThread), kThreads);
  EXPECT_EQ(CountTracks(t, TrackKind::kCounter), kCounterTracks);
  EXPECT_EQ(d.count(DiagCode::kUnsupportedFeature), kUntypedEvents);
  std::map<int64_t, std::string> processes;
  for (size_t i = 0; i < t.processes().size(); ++i) {
    const ProcessId p = ProcessId::FromIndex(i);
    if (t.processes().pid(p) != loaders::kGlobalPid) processes[t.processes().pid(p)] = t.str(t.processes().name(p));
  }
  EXPECT_EQ(processes, kProcesses);
}

// The longest matched slice on a thread track (perfetto_facts.py): its start
// needs the sequence's incremental microsecond clock 65 and the MONOTONIC ->
// BOOTTIME link of the later of the two global snapshots (the earlier one is
// 468 ns off).
TEST(PerfettoRealTrace, LongestThreadSliceHasItsNameTimeAndDuration) {
  REQUIRE_PERFETTO_TRACE();
  const Trace t = LoadShared();
  const SliceTable& s = t.slices();
  int found = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.start_ns()[i] != 60932899710158) continue;
    if (t.str(s.name()[i]) != "ThreadPool_RunTask") continue;
    EXPECT_EQ(s.dur_ns()[i], 23902000);
    EXPECT_EQ(t.tracks().kind(s.track()[i]), TrackKind::kHostThread);
    EXPECT_EQ(t.str(t.tracks().name(s.track()[i])), "ThreadPoolForegroundWorker");
    ++found;
  }
  EXPECT_EQ(found, 1);
}

TEST(PerfettoRealTrace, CutFileKeepsTheFirstHalf) {
  REQUIRE_PERFETTO_TRACE();
  std::ifstream in(SharedTracePath(kFile), std::ios::binary);
  std::stringstream raw;
  raw << in.rdbuf();
  const std::string half = raw.str().substr(0, raw.str().size() / 2);
  auto r = loaders::LoadBytes(half, "half.pftrace");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->CheckInvariants(), "");
  EXPECT_EQ(r->diagnostics().count(DiagCode::kTruncated), 1u);
  EXPECT_GT(r->slices().size(), 10000u);
  EXPECT_LT(r->slices().size(), kSliceBegins + kInstantsWithFlows);
}

}  // namespace
}  // namespace stepline::testing
