// ComputeStepBreakdowns: the category priority, idle split by cause, and the
// categories summing exactly to each step.
#include "model/analysis/step_breakdown.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

std::vector<StepBreakdown> Breakdowns(const Trace& t, StepSet* steps) {
  const std::vector<DeviceActivity> d = ComputeDeviceActivity(t);
  EXPECT_EQ(d.size(), 1u);
  *steps = ComputeSteps(t);
  const auto gaps = ComputeIdleGaps(t, d.at(0), *steps, IdleCauseTable::Default(), BuildLaunchIndex(t));
  return ComputeStepBreakdowns(d.at(0), *steps, gaps);
}

TEST(StepBreakdownTest, EveryInstantGoesToTheHighestPriorityCategory) {
  // [0,10) H2D alone | [10,40) kernel (H2D until 20, collective from 30) |
  // [40,60) collective (D2H from 50) | [60,70) D2H (D2D from 65) |
  // [70,80) D2D (memset from 75) | [80,90) memset | [90,100) nothing.
  Trace t = SyntheticTrace()
                .StepsRow("1", Us(0), Us(100))
                .Kernel(1, Us(10), Us(30))
                .Gpu(GpuKind::kCollective, 2, Us(30), Us(30), "ncclAllReduce")
                .Copy(GpuKind::kMemcpyH2D, 3, Us(0), Us(20))
                .Copy(GpuKind::kMemcpyD2H, 3, Us(50), Us(20))
                .Copy(GpuKind::kMemcpyD2D, 4, Us(65), Us(15))
                .Copy(GpuKind::kMemset, 5, Us(75), Us(15))
                .Build();
  StepSet steps;
  const auto b = Breakdowns(t, &steps);
  ASSERT_EQ(b.size(), 1u);
  const CategoryNs& c = b[0].category_ns;
  EXPECT_EQ(At(c, TimeCategory::kCompute), Us(30));
  EXPECT_EQ(At(c, TimeCategory::kCollective), Us(20));
  EXPECT_EQ(At(c, TimeCategory::kMemcpyH2D), Us(10));
  EXPECT_EQ(At(c, TimeCategory::kMemcpyD2H), Us(10));
  EXPECT_EQ(At(c, TimeCategory::kMemcpyOther), Us(10));
  EXPECT_EQ(At(c, TimeCategory::kMemset), Us(10));
  // [60,100) has no kernel and no cause: idle_other for the part no copy covers.
  EXPECT_EQ(At(c, TimeCategory::kIdleOther), Us(10));
  EXPECT_EQ(std::accumulate(c.begin(), c.end(), DurNs{0}), Us(100));
  // No-kernel time by gap cause: the leading edge [0,10) is covered by the H2D
  // copy (memcpy_h2d); the trailing [60,100) is other.
  EXPECT_EQ(At(b[0].idle_by_cause, IdleCause::kMemcpyH2D), Us(10));
  EXPECT_EQ(At(b[0].idle_by_cause, IdleCause::kOther), Us(40));
  EXPECT_EQ(std::accumulate(b[0].idle_by_cause.begin(), b[0].idle_by_cause.end(), DurNs{0}), Us(50));
}

TEST(StepBreakdownTest, StepsSplitSegmentsAndIdleTakesTheGapCause) {
  // Steps [0,100) and [100,200); K1 [10,60), K2 [150,190) launched at 120
  // from main, which waits in IteratorGetNext [60,118): gap [60,150) is input.
  Trace t = SyntheticTrace()
                .StepsRow("a", Us(0), Us(100))
                .StepsRow("b", Us(100), Us(100))
                .Thread("main")
                .Slice("IteratorGetNext", Us(60), Us(58))
                .Kernel(7, Us(10), Us(50), "K1")
                .Kernel(7, Us(150), Us(40), "K2")
                .LaunchedFrom("main", Us(120), Us(5))
                .Build();
  StepSet steps;
  const auto b = Breakdowns(t, &steps);
  ASSERT_EQ(b.size(), 2u);
  // Step a: [0,10) leading edge (no launch known -> other), compute 50, input 40.
  EXPECT_EQ(At(b[0].category_ns, TimeCategory::kIdleOther), Us(10));
  EXPECT_EQ(At(b[0].category_ns, TimeCategory::kCompute), Us(50));
  EXPECT_EQ(At(b[0].category_ns, TimeCategory::kIdleInput), Us(40));
  // Step b: input 50 ([100,150)), compute 40, trailing edge [190,200) other.
  EXPECT_EQ(At(b[1].category_ns, TimeCategory::kIdleInput), Us(50));
  EXPECT_EQ(At(b[1].category_ns, TimeCategory::kCompute), Us(40));
  EXPECT_EQ(At(b[1].category_ns, TimeCategory::kIdleOther), Us(10));
  EXPECT_EQ(At(b[1].idle_by_cause, IdleCause::kInput), Us(50));
  for (const StepBreakdown& s : b) {
    EXPECT_EQ(std::accumulate(s.category_ns.begin(), s.category_ns.end(), DurNs{0}), Us(100));
  }
}

TEST(StepBreakdownTest, NoStepsGiveNoBreakdowns) {
  EXPECT_TRUE(ComputeStepBreakdowns(DeviceActivity{}, StepSet{}, {}).empty());
}

}  // namespace
}  // namespace stepline::analysis
