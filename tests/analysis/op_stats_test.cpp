// ComputeOpStats: counts, self time, percentages and ordering by hand.
#include "model/analysis/op_stats.h"

#include <gtest/gtest.h>

#include "model/analysis/step_set.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

TEST(OpStatsTest, SelfTimeKindsAndPercentages) {
  // A [0,100) > {B [10,30), C [40,90) > D [50,60)}; a second A [200,250).
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("A", Us(0), Us(100))
                .Slice("B", Us(10), Us(20))
                .Slice("C", Us(40), Us(50))
                .Slice("D", Us(50), Us(10))
                .Slice("A", Us(200), Us(50))
                .Kernel(1, Us(0), Us(30), "gemm")
                .Kernel(1, Us(40), Us(10), "gemm")
                .Copy(GpuKind::kMemcpyH2D, 2, Us(60), Us(10))
                .Copy(GpuKind::kMemset, 2, Us(80), Us(5))
                .StepsRow("1", Us(0), Us(300))  // a derived row: not an op
                .Build();
  const OpStats s = ComputeOpStats(t);
  ASSERT_EQ(s.ops.size(), 7u);
  auto name = [&](size_t i) { return t.str(s.ops[i].name); };
  // Sorted by total: A 150, C 50, gemm 40, B 20, then D and Memcpy HtoD (10, by name), Memset 5.
  EXPECT_EQ(name(0), "A");
  EXPECT_EQ(name(1), "C");
  EXPECT_EQ(name(2), "gemm");
  EXPECT_EQ(name(3), "B");
  EXPECT_EQ(name(4), "D");
  EXPECT_EQ(name(5), "Memcpy HtoD");
  EXPECT_EQ(name(6), "Memset");
  const OpStat& a = s.ops[0];
  EXPECT_EQ(a.kind, OpKind::kHostOp);
  EXPECT_EQ(a.count, 2u);
  EXPECT_EQ(a.total_ns, Us(150));
  EXPECT_EQ(a.self_ns, Us(80));  // 100 - 20 - 50 + 50
  EXPECT_EQ(a.min_ns, Us(50));
  EXPECT_EQ(a.max_ns, Us(100));
  EXPECT_EQ(a.avg_ns, Us(75));
  EXPECT_EQ(s.ops[1].self_ns, Us(40));
  EXPECT_EQ(s.host_self_ns, Us(150));
  EXPECT_EQ(s.device_self_ns, Us(55));
  EXPECT_NEAR(a.percent, 100.0 * 80 / 150, 1e-9);
  EXPECT_NEAR(s.ops[1].cumulative_percent, 100.0 * 120 / 150, 1e-9);
  EXPECT_EQ(s.ops[2].kind, OpKind::kKernel);
  EXPECT_NEAR(s.ops[2].percent, 100.0 * 40 / 55, 1e-9);
  EXPECT_NEAR(s.ops[5].cumulative_percent, 100.0 * 50 / 55, 1e-9);
  EXPECT_EQ(s.ops[5].kind, OpKind::kMemcpy);
  EXPECT_NEAR(s.ops[6].cumulative_percent, 100.0, 1e-9);
  EXPECT_NEAR(s.ops[4].cumulative_percent, 100.0, 1e-9);  // D is the last host op
}

TEST(OpStatsTest, SameNameDifferentKindsAreSeparateRows) {
  Trace t = SyntheticTrace().Thread("main").Slice("x", 0, 10).Kernel(1, 0, 20, "x").Build();
  const OpStats s = ComputeOpStats(t);
  ASSERT_EQ(s.ops.size(), 2u);
  EXPECT_EQ(s.ops[0].kind, OpKind::kKernel);
  EXPECT_EQ(s.ops[1].kind, OpKind::kHostOp);
  EXPECT_TRUE(ComputeOpStats(SyntheticTrace().Build()).ops.empty());
}

// The profiler's trace-wide span is not an op.
TEST(OpStatsTest, ProfilerSpansAreNotOps) {
  Trace t = SyntheticTrace()
                .Thread("PyTorch Profiler")
                .Slice("PyTorch Profiler (0)", 0, Us(1000))
                .Thread("main")
                .Slice("[pytorch|profiler|execution_trace|thread]", 0, Us(900))
                .Slice("aten::mm", Us(10), Us(20))
                .Build();
  const OpStats s = ComputeOpStats(t);
  ASSERT_EQ(s.ops.size(), 1u);
  EXPECT_EQ(t.str(s.ops[0].name), "aten::mm");
}

// Kernels whose recorded times overlap on one stream nest as parent and
// child; a kernel's self time is still its duration (hta traces had
// kernels with self < total).
TEST(OpStatsTest, KernelSelfTimeIsItsDuration) {
  Trace t = SyntheticTrace().Kernel(1, 0, Us(20), "outer").Kernel(1, Us(10), Us(5), "inner").Build();
  const OpStats s = ComputeOpStats(t);
  ASSERT_EQ(s.ops.size(), 2u);
  for (const OpStat& op : s.ops) EXPECT_EQ(op.self_ns, op.total_ns) << t.str(op.name);
  EXPECT_EQ(s.device_self_ns, Us(25));
}

// Step markers are not ops: ProfilerStep#N (by name) and the slices the steps
// were made from (here `iter`, by --steps) are listed apart, and their time
// is in no denominator. ProfilerStep#5..#10 led the window's tables before.
TEST(OpStatsTest, StepMarkersAreNotOps) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#5", 0, Us(100))
                .Slice("aten::mm", Us(10), Us(20))
                .Slice("iter", Us(200), Us(100))
                .Slice("aten::add", Us(210), Us(30))
                .Build();
  const OpStats by_name = ComputeOpStats(t);
  ASSERT_EQ(by_name.ops.size(), 3u);  // `iter` is an op unless the steps were made from it
  EXPECT_EQ(t.str(by_name.ops[0].name), "iter");
  ASSERT_EQ(by_name.step_markers.size(), 1u);
  EXPECT_EQ(t.str(by_name.step_markers[0].name), "ProfilerStep#5");
  EXPECT_EQ(by_name.step_markers[0].self_ns, Us(80));
  EXPECT_EQ(by_name.host_self_ns, Us(120));  // iter 70, aten::add 30, aten::mm 20

  Trace u = SyntheticTrace()
                .Thread("main")
                .Slice("iter", Us(200), Us(100))
                .Slice("aten::add", Us(210), Us(30))
                .Build();
  StepOptions options;
  options.steps_regex = "^iter$";
  const StepSet steps = ComputeSteps(u, options);
  ASSERT_EQ(steps.source, StepSource::kRegex);
  const OpStats s = ComputeOpStats(u, &steps);
  ASSERT_EQ(s.ops.size(), 1u);
  EXPECT_EQ(u.str(s.ops[0].name), "aten::add");
  EXPECT_NEAR(s.ops[0].percent, 100.0, 1e-9);
  ASSERT_EQ(s.step_markers.size(), 1u);
  EXPECT_EQ(u.str(s.step_markers[0].name), "iter");
}

// NVTX / roctx step ranges become a "Steps" row (the loaders); the host
// range each step came from, of the step's exact extent, is its marker.
TEST(OpStatsTest, TheHostRangeOfAStepsRowStepIsAMarker) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("train_step", 0, Us(100))
                .Slice("aten::mm", Us(10), Us(20))
                .Slice("train_step", Us(200), Us(100))
                .Kernel(1, Us(10), Us(50), "gemm")
                .StepsRow("train_step 1", 0, Us(100))
                .StepsRow("train_step 2", Us(200), Us(100))
                .Build();
  const StepSet steps = ComputeSteps(t);
  ASSERT_EQ(steps.steps.size(), 2u);
  const OpStats s = ComputeOpStats(t, &steps);
  ASSERT_EQ(s.step_markers.size(), 1u);
  EXPECT_EQ(t.str(s.step_markers[0].name), "train_step");
  EXPECT_EQ(s.step_markers[0].count, 2u);
  for (const OpStat& op : s.ops) EXPECT_NE(t.str(op.name), "train_step");
}

}  // namespace
}  // namespace stepline::analysis
