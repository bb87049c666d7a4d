// CUDA graph replays in an Nsight export: the kernel table's graphId /
// graphNodeId columns become the kernels' `graph id` / `graph node id` args,
// one cudaGraphLaunch owns the kernels of its correlation id, the gap between
// two of its nodes has cause `graph`, and the kernel rows carry the graph.
// (The shared nsys exports have the columns, all NULL: no graph there.)
#include <gtest/gtest.h>

#include "loaders/nsys/nsys_loader.h"
#include "model/analysis/report.h"
#include "tests/loaders/nsys_fixture.h"

namespace stepline::loaders {
namespace {

using ::stepline::testing::GlobalTid;
using ::stepline::testing::NsysFixture;

// One cudaGraphLaunch (correlation 1) at 10 us whose graph 42 runs nodes 1
// and 2 at [20, 30) and [50, 60) us; then a plain launch (correlation 2) of a
// kernel at [80, 90) us with NULL graph columns.
std::string NsysGraphReplayBytes() {
  NsysFixture f;
  f.CreateStandardTables();
  f.Exec("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphNodeId INTEGER;"
         "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;");
  f.Exec("INSERT INTO StringIds VALUES (1, 'cudaGraphLaunch_v10000'), (2, 'cudaLaunchKernel'), (3, 'node_a'),"
         " (4, 'node_b'), (5, 'plain');");
  const std::string gtid = std::to_string(GlobalTid(300, 301));
  const std::string gpid = std::to_string(GlobalTid(300, 0));
  f.Exec("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, globalTid, correlationId, nameId) VALUES"
         " (10000, 15000, " + gtid + ", 1, 1), (70000, 75000, " + gtid + ", 2, 2);");
  const std::string cols =
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, globalPid,"
      " demangledName, graphId, graphNodeId) VALUES ";
  f.Exec(cols + "(20000, 30000, 0, 7, 1, " + gpid + ", 3, 42, 1), (50000, 60000, 0, 7, 1, " + gpid +
         ", 4, 42, 2), (80000, 90000, 0, 7, 2, " + gpid + ", 5, NULL, NULL);");
  return f.Bytes();
}

TEST(NsysGraphTest, GraphColumnsMakeReplaysAndGraphGaps) {
  auto loaded = LoadNsysSqliteBytes(NsysGraphReplayBytes(), "graph.sqlite");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const analysis::TraceAnalysis a = analysis::ComputeAnalysis(*loaded);
  ASSERT_EQ(a.graphs.replays.size(), 1u);
  const analysis::GraphReplay& r = a.graphs.replays[0];
  EXPECT_EQ(r.graph_id, 42);
  EXPECT_TRUE(r.graph_id_recorded);
  EXPECT_EQ(r.nodes, 2u);
  EXPECT_EQ(r.start_ns, 20'000);
  EXPECT_EQ(r.end_ns, 60'000);
  ASSERT_EQ(a.gaps.size(), 2u);
  EXPECT_EQ(a.gaps[0].start_ns, 30'000);
  EXPECT_EQ(a.gaps[0].cause, analysis::IdleCause::kGraph);
  EXPECT_EQ(a.gaps[1].start_ns, 60'000);
  EXPECT_NE(a.gaps[1].cause, analysis::IdleCause::kGraph);  // before the plain kernel
  // Kernel rows: one per graph node, and the plain kernel outside graphs.
  ASSERT_EQ(a.kernels.size(), 3u);
  for (const analysis::KernelStat& k : a.kernels) {
    const std::string_view name = loaded->str(k.name);
    if (name == "plain") {
      EXPECT_EQ(k.graph_id, -1);
      EXPECT_EQ(k.graph_node_id, -1);
    } else {
      EXPECT_EQ(k.graph_id, 42) << name;
      EXPECT_EQ(k.graph_node_id, name == "node_a" ? 1 : 2) << name;
    }
  }
}

}  // namespace
}  // namespace stepline::loaders
