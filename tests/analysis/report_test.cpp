// ComputeReport end to end on a two-device trace, and on degenerate input.
#include "model/analysis/report.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

// Step ProfilerStep#1 [0,1000). GPU 1: K1 [0,300), K2 [305,400), K3
// [900,1000); main waits in IteratorGetNext [420,870). GPU 0: one kernel
// [0,100). GPU 1 has more kernel time (495 vs 100 us): it is primary.
Trace TwoDevices() {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", 0, Us(1000)).Slice("IteratorGetNext", Us(420), Us(450));
  b.Device(1);
  b.Kernel(7, 0, Us(300), "K1").LaunchedFrom("main", 0, Us(2));
  b.Kernel(7, Us(305), Us(95), "K2").LaunchedFrom("main", Us(301), Us(3));  // covers most of [300,305)
  b.Kernel(7, Us(900), Us(100), "K3").LaunchedFrom("main", Us(880), Us(10));
  b.Device(0).Kernel(1, 0, Us(100), "small");
  return b.Build();
}

TEST(ReportTest, PrimaryDeviceStepsGapsAndRecommendations) {
  const Trace t = TwoDevices();
  const Report r = ComputeReport(t);
  EXPECT_EQ(r.step_source, StepSource::kProfilerStep);
  EXPECT_EQ(r.primary_device, "GPU 1");
  ASSERT_EQ(r.devices.size(), 2u);
  const DeviceReport& g1 = r.devices[r.primary_device_index];
  EXPECT_EQ(g1.busy_ns, Us(495));
  EXPECT_EQ(g1.idle_ns, Us(505));
  EXPECT_EQ(At(g1.idle_by_cause, IdleCause::kLaunch), Us(5));   // [300,305): only K2's launch
  EXPECT_EQ(At(g1.idle_by_cause, IdleCause::kInput), Us(500));  // [400,900)
  EXPECT_EQ(r.idle_by_cause, g1.idle_by_cause);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].name, "ProfilerStep#1");
  EXPECT_EQ(At(r.steps[0].breakdown, TimeCategory::kCompute), Us(495));
  EXPECT_EQ(At(r.steps[0].breakdown, TimeCategory::kIdleInput), Us(500));
  EXPECT_EQ(At(r.steps[0].breakdown, TimeCategory::kIdleLaunch), Us(5));
  EXPECT_EQ(r.breakdown_total, r.steps[0].breakdown);
  // GPU 0 idles after its only kernel: edge time, other, not a listed gap.
  const DeviceReport& g0 = r.devices[1 - r.primary_device_index];
  EXPECT_EQ(g0.idle_ns, 0);
  EXPECT_EQ(At(g0.breakdown_total, TimeCategory::kIdleOther), Us(900));
  // Only the 500 us gap reaches the default 10 us minimum.
  ASSERT_EQ(r.gaps.size(), 1u);
  const ReportGap& gap = r.gaps[0];
  EXPECT_EQ(r.DeviceName(gap), "GPU 1");
  EXPECT_EQ(gap.start_ns, Us(400));
  EXPECT_EQ(gap.dur_ns, Us(500));
  EXPECT_EQ(r.StepName(gap), "ProfilerStep#1");
  EXPECT_EQ(gap.cause, IdleCause::kInput);
  EXPECT_EQ(gap.next_kernel, "K3");
  EXPECT_EQ(gap.launch_delay_ns, Us(20));
  const auto events = r.CauseEvents(gap);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].name, "IteratorGetNext");
  EXPECT_EQ(r.threads.at(events[0].thread), "main");
  EXPECT_EQ(events[0].start_ns, Us(420));
  EXPECT_EQ(events[0].dur_ns, Us(450));
  EXPECT_EQ(events[0].overlap_ns, Us(450));
  ASSERT_FALSE(r.recommendations.empty());
  EXPECT_EQ(
      r.recommendations[0].rfind("Highly input-bound: the GPU waits for input 50% of the step (IteratorGetNext)", 0),
      0u)
      << r.recommendations[0];
  ASSERT_FALSE(r.ops.empty());
  // The step marker is listed apart, not as the costliest op.
  ASSERT_EQ(r.step_markers.size(), 1u);
  EXPECT_EQ(r.step_markers[0].name, "ProfilerStep#1");
  for (const ReportOp& op : r.ops) EXPECT_NE(op.name, "ProfilerStep#1");
  ASSERT_EQ(r.kernels.size(), 4u);
  EXPECT_EQ(r.kernels[0].name, "K1");
}

TEST(ReportTest, MinGapOptionFiltersTheList) {
  const Trace t = TwoDevices();
  ReportOptions o;
  o.min_gap_ns = Us(5);
  const Report r = ComputeReport(t, o);
  ASSERT_EQ(r.gaps.size(), 2u);
  // The 5 us gap [300,305) is blamed on K2's launch call alone.
  EXPECT_EQ(r.gaps[0].cause, IdleCause::kLaunch);
  ASSERT_EQ(r.CauseEvents(r.gaps[0]).size(), 1u);
  EXPECT_EQ(r.CauseEvents(r.gaps[0])[0].name, "cudaLaunchKernel");
  EXPECT_EQ(r.CauseEvents(r.gaps[1])[0].name, "IteratorGetNext");  // ranges do not mix
  o.min_gap_ns = Us(501);
  EXPECT_TRUE(ComputeReport(t, o).gaps.empty());
}

TEST(ReportTest, EmptyAndCpuOnlyTracesGiveEmptyResults) {
  const Report empty = ComputeReport(SyntheticTrace().Build());
  EXPECT_EQ(empty.primary_device_index, -1);
  EXPECT_TRUE(empty.devices.empty());
  EXPECT_TRUE(empty.steps.empty());
  EXPECT_TRUE(empty.gaps.empty());
  EXPECT_TRUE(empty.recommendations.empty());
  const Report cpu = ComputeReport(SyntheticTrace().Thread("main").Slice("ProfilerStep#1", 0, Us(10)).Build());
  EXPECT_EQ(cpu.steps.size(), 1u);
  EXPECT_TRUE(cpu.devices.empty());
  EXPECT_TRUE(cpu.ops.empty());  // ProfilerStep#1 is a step marker, not an op
  EXPECT_EQ(cpu.step_markers.size(), 1u);
  EXPECT_TRUE(cpu.recommendations.empty());
}

}  // namespace
}  // namespace stepline::analysis
