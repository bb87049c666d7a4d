// Waits across streams and the GPU work a synchronization names, in the
// critical path: the planted steps of demo::PlantedStreamWaitTrace (paths
// derived by hand), and HTA's two event-synchronization traces against the
// facts an independent script read from the raw files
// (tests/data/real_trace_facts/stream_wait_facts.py and .tsv).
#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "demo/demo_planted.h"
#include "loaders/load.h"
#include "model/analysis/critical_path/stream_waits.h"
#include "model/analysis/trace_analysis.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

DurNs WaitPathUs(int64_t us) { return us * 1000; }

// The names of the slices on a path, in time order.
std::vector<std::string> WaitPathNames(const Trace& trace, const CriticalPath& p) {
  std::vector<std::string> out;
  for (SliceId s : p.slices) out.emplace_back(trace.str(trace.slices().name()[s.index()]));
  return out;
}

TEST(CriticalPathWaitsTest, PlantedStepsFollowTheEventsAndTheNamedStream) {
  const Trace trace = demo::PlantedStreamWaitTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.steps.source, StepSource::kProfilerStep);
  ASSERT_EQ(a.critical_paths.size(), demo::kPlantedWaitPaths.size());
  for (size_t i = 0; i < demo::kPlantedWaitPaths.size(); ++i) {
    const demo::PlantedPath& want = demo::kPlantedWaitPaths[i];
    const CriticalPath& p = a.critical_paths[i];
    SCOPED_TRACE(want.bound);
    EXPECT_EQ(p.dur_ns, WaitPathUs(1000));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kHost)], WaitPathUs(want.host_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kLaunch)], WaitPathUs(want.launch_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kGpu)], WaitPathUs(want.gpu_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kSync)], WaitPathUs(want.sync_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kIdle)], WaitPathUs(want.idle_us));
    EXPECT_EQ(std::accumulate(p.by_kind_ns.begin(), p.by_kind_ns.end(), DurNs{0}), p.dur_ns);
  }
  // Step 1 crosses from stream 8 to stream 7 through the event; `side` (stream 7,
  // ending after `consumer`) is not what the stream-8 synchronize waited for.
  EXPECT_EQ(WaitPathNames(trace, a.critical_paths[0]),
            (std::vector<std::string>{"cudaLaunchKernel", "producer", "consumer", "cudaStreamSynchronize",
                                      "optimizer.step"}));
  // Step 2: the event synchronize waits for `producer`, not `other` (stream 8, ending later).
  EXPECT_EQ(WaitPathNames(trace, a.critical_paths[1]),
            (std::vector<std::string>{"cudaLaunchKernel", "producer", "cudaEventSynchronize", "postprocess"}));
}

TEST(CriticalPathWaitsTest, NoCudaSyncEventsGiveNoWaits) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  EXPECT_TRUE(BuildStreamWaits(trace, BuildLaunchIndex(trace)).empty());
}

// The `correlation` arg of a slice; -1 without one.
int64_t WaitSliceCorrelation(const Trace& trace, uint32_t slice) {
  ArgValue v;
  int64_t out = -1;
  const StringId key = trace.strings().Find("correlation");
  if (!trace.args().Find(trace.slices().arg_set()[slice], key, &v) || !v.ToInt64(&out)) return -1;
  return out;
}

struct WaitFactRow {
  std::string kind, call, waited_name;
  int64_t call_corr = -1, waited_corr = -1, waiting_corr = -1, stream = -1;
};

std::map<std::string, std::vector<WaitFactRow>> ReadWaitFacts() {
  std::map<std::string, std::vector<WaitFactRow>> out;
  for (const std::vector<std::string>& c : testing::ReadTsvRows("real_trace_facts/stream_wait_facts.tsv")) {
    if (c.size() < 8) continue;
    out[c[0]].push_back({c[1], c[2], c[5], std::stoll(c[3]), std::stoll(c[4]), std::stoll(c[6]), std::stoll(c[7])});
  }
  return out;
}

TEST(CriticalPathWaitsTest, HtaEventSyncTracesWaitsMatchTheScript) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const auto facts = ReadWaitFacts();
  ASSERT_EQ(facts.size(), 2u);
  for (const auto& [path, rows] : facts) {
    SCOPED_TRACE(path);
    auto loaded = loaders::LoadFile(testing::SharedTracePath(path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Trace& trace = loaded.value();
    const StreamWaits waits = BuildStreamWaits(trace, BuildLaunchIndex(trace));
    size_t event_syncs = 0, stream_waits = 0, stream_syncs = 0;
    for (const WaitFactRow& row : rows) {
      SCOPED_TRACE(row.kind + " " + std::to_string(row.call_corr));
      if (row.kind == "Stream Sync") {
        ++stream_syncs;
        bool found = false;
        for (const auto& [call, stream] : waits.call_streams) {
          if (WaitSliceCorrelation(trace, call) != row.call_corr) continue;
          found = true;
          EXPECT_EQ(trace.tracks().tid(stream), row.stream);
        }
        EXPECT_TRUE(found);
      } else if (row.kind == "Event Sync") {
        ++event_syncs;
        bool found = false;
        for (const auto& [call, op] : waits.call_waits) {
          if (WaitSliceCorrelation(trace, call) != row.call_corr) continue;
          found = true;
          EXPECT_EQ(trace.str(trace.slices().name()[call]), row.call);
          EXPECT_EQ(WaitSliceCorrelation(trace, op), row.waited_corr);
          EXPECT_EQ(trace.str(trace.slices().name()[op]), row.waited_name);
        }
        EXPECT_TRUE(found);
      } else {
        ++stream_waits;
        bool found = false;
        for (const auto& [waiting, op] : waits.op_waits) {
          if (WaitSliceCorrelation(trace, waiting) != row.waiting_corr) continue;
          found = true;
          EXPECT_EQ(WaitSliceCorrelation(trace, op), row.waited_corr);
        }
        EXPECT_TRUE(found);
      }
    }
    // Nothing beyond what the script found.
    EXPECT_EQ(waits.call_streams.size(), stream_syncs);
    EXPECT_EQ(waits.call_waits.size(), event_syncs);
    EXPECT_EQ(waits.op_waits.size(), stream_waits);
  }
}

// ProfilerStep#100 of the event-sync trace ends in cudaEventSynchronize
// waiting for the spin kernel the event covers: the path's sync segment runs
// from the kernel's end to the call's return, and the kernel is on the path.
TEST(CriticalPathWaitsTest, HtaEventSyncStepWaitsForTheSpinKernel) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto loaded = loaders::LoadFile(
      testing::SharedTracePath("hta/critical_path_cuda_event_sync_event_sync_trace.json.gz"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& trace = loaded.value();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.critical_paths.size(), 1u);
  const CriticalPath& p = a.critical_paths[0];
  const SliceTable& s = trace.slices();
  bool sync_then_kernel = false;
  for (size_t i = 1; i < p.segments.size(); ++i) {
    const PathSegment& seg = p.segments[i];
    if (seg.kind != PathKind::kSync || trace.str(s.name()[seg.slice.index()]) != "cudaEventSynchronize") continue;
    const PathSegment& before = p.segments[i - 1];
    ASSERT_FALSE(before.slice.is_none());
    EXPECT_EQ(WaitSliceCorrelation(trace, before.slice.index()), 1526);  // the spin kernel (script: row 2)
    EXPECT_EQ(seg.start_ns, s.end_ns(before.slice));
    EXPECT_EQ(seg.start_ns + seg.dur_ns, s.end_ns(seg.slice));
    sync_then_kernel = true;
  }
  EXPECT_TRUE(sync_then_kernel);
}

}  // namespace
}  // namespace stepline::analysis
