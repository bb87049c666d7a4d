// ComputeKernelStats: launch configurations from Kineto args and XSpace
// kernel_details, grouping, occupancy, and the launching framework op.
#include "model/analysis/kernel_stats.h"

#include <gtest/gtest.h>

#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

const KernelStat* Find(const Trace& t, const std::vector<KernelStat>& stats, std::string_view name,
                       int64_t grid_x = -1) {
  for (const KernelStat& k : stats) {
    if (t.str(k.name) == name && (grid_x < 0 || k.grid[0] == grid_x)) return &k;
  }
  return nullptr;
}

TEST(KernelStatsTest, KinetoArgsGroupAndAverageOccupancy) {
  SyntheticTrace b;
  for (int i = 0; i < 2; ++i) {
    b.Kernel(7, Us(100 * i), Us(10 + 10 * i), "gemm")
        .ArgJson("grid", "[128, 1, 1]")
        .ArgJson("block", "[256,1,1]")
        .Arg("registers per thread", 64)
        .Arg("shared memory", 1024)
        .ArgDouble("est. achieved occupancy %", 50 + 20 * i);
  }
  b.Kernel(7, Us(300), Us(5), "gemm").ArgJson("grid", "[64,1,1]");
  Trace t = b.Build();
  const auto stats = ComputeKernelStats(t, BuildLaunchIndex(t));
  ASSERT_EQ(stats.size(), 2u);
  const KernelStat* k = Find(t, stats, "gemm", 128);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k, &stats[0]);  // 30 us beats 5 us
  EXPECT_EQ(k->count, 2u);
  EXPECT_EQ(k->total_ns, Us(30));
  EXPECT_EQ(k->min_ns, Us(10));
  EXPECT_EQ(k->max_ns, Us(20));
  EXPECT_EQ(k->avg_ns, Us(15));
  EXPECT_EQ(k->block, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(k->registers_per_thread, 64);
  EXPECT_EQ(k->shared_memory_bytes, 1024);
  EXPECT_DOUBLE_EQ(k->occupancy_percent, 60.0);
  const KernelStat* other = Find(t, stats, "gemm", 64);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->registers_per_thread, -1);
  EXPECT_EQ(other->occupancy_percent, -1);
  EXPECT_EQ(other->block, (std::array<int64_t, 3>{0, 0, 0}));
}

TEST(KernelStatsTest, XSpaceKernelDetailsAndTfOp) {
  // TF JSON exports stringify every arg; kernel_details packs the config.
  Trace t = SyntheticTrace()
                .Kernel(1, 0, Us(3), "volta_sgemm")
                .ArgString("kernel_details",
                           "regs:32 static_shared:100 dynamic_shared:28 grid:2,3,4 block:32,1,1 occ_pct:25.5")
                .ArgString("tf_op", "model/dense/MatMul:MatMul")
                .Build();
  const auto stats = ComputeKernelStats(t, BuildLaunchIndex(t));
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].grid, (std::array<int64_t, 3>{2, 3, 4}));
  EXPECT_EQ(stats[0].block, (std::array<int64_t, 3>{32, 1, 1}));
  EXPECT_EQ(stats[0].registers_per_thread, 32);
  EXPECT_EQ(stats[0].shared_memory_bytes, 128);
  EXPECT_DOUBLE_EQ(stats[0].occupancy_percent, 25.5);
  EXPECT_EQ(t.str(stats[0].framework_op), "model/dense/MatMul:MatMul");
}

TEST(KernelStatsTest, JaxKernelsUseHloOpAndImplausibleRegistersAreUnknown) {
  // As in a real ROCm/JAX capture: an uninitialized register count, and the
  // tf_op only names XLA's module placeholder.
  Trace t = SyntheticTrace()
                .Kernel(1, 0, Us(3), "loop_transpose_fusion")
                .ArgString("kernel_details",
                           "regs:2191500840 static_shared:32462 dynamic_shared:0 grid:1280,1,1 block:256,1,1 occ_pct:0")
                .ArgString("tf_op", "XlaModule:")
                .ArgString("hlo_op", "loop_transpose_fusion")
                .Build();
  const auto stats = ComputeKernelStats(t, BuildLaunchIndex(t));
  ASSERT_EQ(stats.size(), 1u);
  EXPECT_EQ(stats[0].registers_per_thread, -1);
  EXPECT_EQ(stats[0].shared_memory_bytes, 32462);
  EXPECT_EQ(stats[0].grid, (std::array<int64_t, 3>{1280, 1, 1}));
  EXPECT_DOUBLE_EQ(stats[0].occupancy_percent, 0.0);
  EXPECT_EQ(t.str(stats[0].framework_op), "loop_transpose_fusion");
}

TEST(KernelStatsTest, FrameworkOpIsTheHostOpAroundTheLaunch) {
  SyntheticTrace b;
  b.Thread("main")
      .Slice("ProfilerStep#1", 0, Us(1000))
      .Slice("aten::linear", Us(0), Us(100))
      .Slice("aten::addmm", Us(10), Us(40))
      .Slice("aten::mm", Us(200), Us(50))
      .Slice("cudaLaunchKernel", Us(210), Us(10));
  b.Kernel(7, Us(30), Us(5), "k_addmm").LaunchedFrom("main", Us(20), Us(5));
  // The launch comes from a driver call nested in the runtime call: skip both.
  b.Kernel(7, Us(230), Us(5), "k_mm").LaunchedFrom("main", Us(212), Us(2), "cuLaunchKernel");
  // Launched straight from the step marker: no framework op.
  b.Kernel(7, Us(500), Us(5), "k_bare").LaunchedFrom("main", Us(490), Us(2));
  Trace t = b.Build();
  const auto stats = ComputeKernelStats(t, BuildLaunchIndex(t));
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(t.str(Find(t, stats, "k_addmm")->framework_op), "aten::addmm");
  EXPECT_EQ(t.str(Find(t, stats, "k_mm")->framework_op), "aten::mm");
  EXPECT_TRUE(Find(t, stats, "k_bare")->framework_op.is_none());
}

}  // namespace
}  // namespace stepline::analysis
