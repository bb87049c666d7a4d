// Graph replays on the planted demo trace (demo_graphs.h), whose node gaps
// and causes are derived by hand: the replays, their graph ids (derived and
// recorded), the `graph` idle cause, and the breakdown's idle_graph.
#include <gtest/gtest.h>

#include "demo/demo_graphs.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {
namespace {

DurNs GraphTestUs(int64_t us) { return us * 1000; }

TEST(GraphReplaysTest, LaunchNames) {
  EXPECT_TRUE(IsGraphLaunchName("cudaGraphLaunch"));
  EXPECT_TRUE(IsGraphLaunchName("cudaGraphLaunch_v10000"));
  EXPECT_TRUE(IsGraphLaunchName("cuGraphLaunch"));
  EXPECT_TRUE(IsGraphLaunchName("hipGraphLaunch"));
  EXPECT_FALSE(IsGraphLaunchName("cudaLaunchKernel"));
  EXPECT_FALSE(IsGraphLaunchName("hipGraphInstantiateWithFlags"));
}

TEST(GraphReplaysTest, PlantedReplaysAndDerivedIds) {
  const Trace trace = demo::PlantedGraphTrace();
  const LaunchIndex launches = BuildLaunchIndex(trace);
  const GraphReplays& g = launches.graphs;
  ASSERT_EQ(g.replays.size(), 3u);
  struct Want {
    int64_t start_us, end_us, graph_id;
    uint32_t nodes;
    int64_t kernel_us;
  };
  const Want want[] = {{30, 400, 1, 3, 300}, {1020, 1390, 1, 3, 300}, {1410, 1560, 2, 3, 120}};
  for (size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(g.replays[i].start_ns, GraphTestUs(want[i].start_us));
    EXPECT_EQ(g.replays[i].end_ns, GraphTestUs(want[i].end_us));
    EXPECT_EQ(g.replays[i].graph_id, want[i].graph_id);
    EXPECT_FALSE(g.replays[i].graph_id_recorded);
    EXPECT_EQ(g.replays[i].nodes, want[i].nodes);
    EXPECT_EQ(g.replays[i].kernel_ns, GraphTestUs(want[i].kernel_us));
    EXPECT_EQ(trace.str(trace.slices().name()[g.replays[i].launch.index()]), "cudaGraphLaunch");
  }
  EXPECT_EQ(g.node_replay.size(), 9u);  // the plain `add` kernel is no replay's
}

TEST(GraphReplaysTest, RecordedIdsWin) {
  const Trace trace = demo::PlantedGraphTrace(/*record_ids=*/true);
  const GraphReplays g = BuildLaunchIndex(trace).graphs;
  ASSERT_EQ(g.replays.size(), 3u);
  EXPECT_EQ(g.replays[0].graph_id, 3);
  EXPECT_EQ(g.replays[1].graph_id, 3);
  EXPECT_EQ(g.replays[2].graph_id, 5);
  EXPECT_TRUE(g.replays[2].graph_id_recorded);
  EXPECT_EQ(g.NodeIdOf(g.node_replay.back().first), 23);
}

TEST(GraphReplaysTest, NodeGapsHaveCauseGraph) {
  const Trace trace = demo::PlantedGraphTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.gaps.size(), demo::kPlantedGraphGaps.size());
  for (size_t i = 0; i < a.gaps.size(); ++i) {
    const demo::PlantedGraphGap& want = demo::kPlantedGraphGaps[i];
    SCOPED_TRACE(want.start_us);
    EXPECT_EQ(a.gaps[i].start_ns, GraphTestUs(want.start_us));
    EXPECT_EQ(a.gaps[i].end_ns, GraphTestUs(want.end_us));
    EXPECT_EQ(IdleCauseName(a.gaps[i].cause), want.cause);
    // Never a host event: graph gaps blame nothing.
    if (a.gaps[i].cause == IdleCause::kGraph) {
      EXPECT_TRUE(a.gaps[i].cause_events.empty());
    }
  }
  const DeviceAnalysis& d = *a.primary();
  EXPECT_EQ(At(d.idle_by_cause, IdleCause::kGraph), GraphTestUs(demo::kPlantedGraphIdleUs));
  // No-kernel time by cause counts B's memset (5 us inside its 30 us gap);
  // the breakdown gives the memset's own time to `memset` first.
  EXPECT_EQ(At(d.step_idle_by_cause, IdleCause::kGraph), GraphTestUs(demo::kPlantedGraphIdleUs));
  EXPECT_EQ(At(d.breakdown_total, TimeCategory::kIdleGraph), GraphTestUs(demo::kPlantedGraphIdleUs - 5));
  EXPECT_EQ(At(d.breakdown_total, TimeCategory::kMemset), GraphTestUs(5));
  // Step 1 holds A1's 70, step 2 A2's 70 and B's 30 less the memset.
  EXPECT_EQ(At(d.steps[0].category_ns, TimeCategory::kIdleGraph), GraphTestUs(70));
  EXPECT_EQ(At(d.steps[1].category_ns, TimeCategory::kIdleGraph), GraphTestUs(95));
  EXPECT_EQ(At(d.steps[1].idle_by_cause, IdleCause::kGraph), GraphTestUs(100));
}

}  // namespace
}  // namespace stepline::analysis
