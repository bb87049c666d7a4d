// The parts ComputeAnalysis composes, each on its own: the top
// blamed event by blamed time (not by gap count), the step spread as the
// sample standard deviation, the one GPU busy definition, the busy bins of the
// overview strip, ComputeTraceSteps, and ComputeAnalysis's gaps and devices.
#include "model/analysis/trace_analysis.h"

#include <gtest/gtest.h>

#include "demo/demo_generator.h"
#include "model/analysis/report.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

SliceId FindSlice(const Trace& t, std::string_view name) {
  for (uint32_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId(i);
  }
  return SliceId::None();
}

// The resnet50 case: zero_grad is blamed by many short gaps, the DataLoader by
// a few long ones. The top event is the one that cost the most idle time.
// A device's kind and name come from its process's name.
TEST(DeviceKindTest, FromTheProcessName) {
  EXPECT_EQ(DeviceKindOfProcessName("/device:TPU:3"), DeviceKind::kTpu);
  EXPECT_EQ(DeviceKindOfProcessName("/device:TPU:3 SparseCore 0"), DeviceKind::kTpu);
  EXPECT_EQ(DeviceKindOfProcessName("TPU 0"), DeviceKind::kTpu);
  EXPECT_EQ(DeviceKindOfProcessName("/device:GPU:0"), DeviceKind::kGpu);
  EXPECT_EQ(DeviceKindOfProcessName("python3 1234"), DeviceKind::kGpu);  // Kineto's numbered GPU processes
  EXPECT_EQ(DeviceKindOfProcessName(""), DeviceKind::kGpu);
  EXPECT_EQ(DeviceKindOfProcessName("MTIA 17"), DeviceKind::kOther);
  EXPECT_EQ(DeviceKindOfProcessName("XPU 1"), DeviceKind::kOther);
  EXPECT_EQ(DeviceKindOfProcessName("/device:CUSTOM:0"), DeviceKind::kOther);
  EXPECT_EQ(DeviceKindOfProcessName("TPUEmbedding host"), DeviceKind::kGpu);  // a word, not a prefix
  EXPECT_EQ(DeviceLabel(DeviceKind::kTpu, 2, "/device:TPU:2"), "TPU 2");
  EXPECT_EQ(DeviceLabel(DeviceKind::kGpu, 0, "/device:GPU:0"), "GPU 0");
  EXPECT_EQ(DeviceLabel(DeviceKind::kOther, 17, "MTIA 17"), "MTIA 17");
  EXPECT_EQ(DeviceLabel(DeviceKind::kOther, 0, "/device:CUSTOM:0"), "Device 0");
  EXPECT_EQ(DeviceKindName(DeviceKind::kTpu), "tpu");
  EXPECT_EQ(DeviceKindName(DeviceKind::kOther), "other");
}

TEST(TopBlamedEventTest, RanksByBlamedTimeNotByGapCount) {
  SyntheticTrace b;
  b.Thread("main").Slice("zero_grad", Us(0), Us(10)).Slice("DataLoader", Us(20), Us(500));
  const Trace t = b.Build();
  const SliceId zero_grad = FindSlice(t, "zero_grad"), loader = FindSlice(t, "DataLoader");
  std::vector<IdleGap> gaps;
  for (int i = 0; i < 10; ++i) {  // 10 gaps x 3 us
    IdleGap g;
    g.step = 0;
    g.cause_events.push_back({zero_grad, Us(3), HostCategory::kHostCompute});
    gaps.push_back(g);
  }
  for (int i = 0; i < 2; ++i) {  // 2 gaps x 200 us
    IdleGap g;
    g.step = 0;
    g.cause_events.push_back({loader, Us(200), HostCategory::kInput});
    gaps.push_back(g);
  }
  IdleGap outside;  // in no step: not counted
  outside.cause_events.push_back({zero_grad, Us(5000), HostCategory::kHostCompute});
  gaps.push_back(outside);
  const TopBlamedEvent top = ComputeTopBlamedEvent(t, gaps);
  EXPECT_EQ(t.str(top.name), "DataLoader");
  EXPECT_EQ(top.blamed_ns, Us(400));
  EXPECT_EQ(top.gaps, 2u);
  EXPECT_EQ(top.example, loader);
  EXPECT_TRUE(ComputeTopBlamedEvent(t, {}).name.is_none());
}

TEST(StepStatsTest, SpreadIsTheSampleStandardDeviation) {
  StepSet steps;
  for (DurNs d : {Us(10), Us(12), Us(14)}) steps.steps.push_back({"s", 0, d, SliceId::None()});
  const StepStats s = ComputeStepStats(steps);
  EXPECT_EQ(s.count, 3u);
  EXPECT_EQ(s.mean_ns, Us(12));
  EXPECT_EQ(s.sample_std_ns, Us(2));  // sqrt((4 + 0 + 4) / (3 - 1)) us; the population std would be 1.633 us
  EXPECT_EQ(s.min_ns, Us(10));
  EXPECT_EQ(s.max_ns, Us(14));
  steps.steps.resize(1);
  EXPECT_EQ(ComputeStepStats(steps).sample_std_ns, 0);
  EXPECT_EQ(ComputeStepStats(StepSet{}).count, 0u);
}

TEST(GpuBusyPercentTest, KernelTimeOverStepTime) {
  CategoryNs b{};
  At(b, TimeCategory::kCompute) = 50;
  At(b, TimeCategory::kCollective) = 10;
  At(b, TimeCategory::kMemcpyH2D) = 20;  // a copy with no kernel is not busy
  At(b, TimeCategory::kIdleInput) = 20;
  EXPECT_DOUBLE_EQ(GpuBusyPercent(b), 60.0);
  EXPECT_DOUBLE_EQ(GpuBusyPercent(CategoryNs{}), 0.0);
}

TEST(BusyBinsTest, OverlapsCountOnceAndBinsSplitExactly) {
  // [0, 150) and [100, 200) merge to [0, 200) over 4 bins of 100 in [0, 400).
  const BusyBins bins = ComputeBusyBins({{100, 200}, {0, 150}, {350, 350}}, TimeRange{0, 400}, 4);
  ASSERT_EQ(bins.fraction.size(), 4u);
  EXPECT_FLOAT_EQ(bins.fraction[0], 1.f);
  EXPECT_FLOAT_EQ(bins.fraction[1], 1.f);
  EXPECT_FLOAT_EQ(bins.fraction[2], 0.f);
  EXPECT_FLOAT_EQ(bins.fraction[3], 0.f);  // the empty interval adds nothing
  const BusyBins half = ComputeBusyBins({{50, 100}}, TimeRange{0, 100}, 1);
  EXPECT_FLOAT_EQ(half.fraction[0], 0.5f);
  EXPECT_TRUE(ComputeBusyBins({}, TimeRange{0, 0}, 4).fraction == std::vector<float>(4, 0.f));
}

// The window analyses in the background and cancels when the trace is
// closed: a set flag stops the analysis before its first stage's results.
TEST(ComputeAnalysisTest, ACancelledAnalysisStopsEarly) {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1000));
  b.Kernel(7, Us(100), Us(300), "gemm").LaunchedFrom("main", Us(90));
  const Trace t = b.Build();
  std::atomic<bool> cancel{false};
  AnalysisOptions options;
  options.cancel = &cancel;
  EXPECT_EQ(ComputeAnalysis(t, options).devices.size(), 1u);  // not set: runs to the end
  cancel = true;
  const TraceAnalysis a = ComputeAnalysis(t, options);
  EXPECT_TRUE(a.devices.empty());
  EXPECT_TRUE(a.ops.ops.empty());
  EXPECT_TRUE(a.steps.steps.empty());
}

TEST(ComputeAnalysisTest, OneStepDefinitionAndGapsPerDevice) {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1000)).Slice("ProfilerStep#2", Us(1000), Us(1000));
  b.Kernel(7, Us(100), Us(300), "gemm").LaunchedFrom("main", Us(90));
  b.Kernel(7, Us(1500), Us(300), "gemm").LaunchedFrom("main", Us(1490));
  const Trace t = b.Build();
  const TraceAnalysis a = ComputeAnalysis(t);
  EXPECT_EQ(a.steps.steps.size(), 2u);
  EXPECT_EQ(ComputeTraceSteps(t).steps.size(), a.steps.steps.size());
  ASSERT_EQ(a.devices.size(), 1u);
  EXPECT_EQ(a.primary_device, 0);
  EXPECT_EQ(a.devices[0].kind, DeviceKind::kGpu);
  // One gap between the kernels, inside the active span.
  ASSERT_EQ(a.gaps.size(), 1u);
  EXPECT_EQ(a.gaps[0].start_ns, Us(400));
  EXPECT_EQ(a.gaps[0].end_ns, Us(1500));
  EXPECT_EQ(a.DeviceGaps(0), std::make_pair(0u, 1u));
  EXPECT_EQ(a.devices[0].idle_ns, Us(1100));
  EXPECT_EQ(a.step_stats.mean_ns, Us(1000));
  // The Report is the same analysis with names.
  const Report r = ResolveReport(t, a);
  EXPECT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.gaps.size(), 1u);
  EXPECT_DOUBLE_EQ(r.gpu_busy_percent, 30.0);  // 600 us of kernels over 2000 us of steps
  EXPECT_EQ(r.devices[0].idle_ns, a.devices[0].idle_ns);
}

// `info`'s steps find the primary device by PrimaryDeviceId, one pass over
// the slices; it must name the device PrimaryDeviceIndex picks from the full
// ComputeDeviceActivity: the most kernel time (copies and empty kernels do not
// count), ties to the lower id, the unknown device last.
TEST(PrimaryDeviceIdTest, NamesTheDevicePrimaryDeviceIndexPicks) {
  const auto expected = [](const Trace& t) -> std::optional<int32_t> {
    const std::vector<DeviceActivity> devices = ComputeDeviceActivity(t);
    const int i = PrimaryDeviceIndex(devices);
    return i < 0 ? std::nullopt : std::optional<int32_t>(devices[i].device_id);
  };
  SyntheticTrace tie;
  tie.Device(1).Kernel(1, Us(0), Us(50)).Device(0).Kernel(2, Us(0), Us(30)).Kernel(3, Us(40), Us(20));
  tie.Device(2).Copy(GpuKind::kMemcpyH2D, 4, Us(0), Us(500)).Kernel(4, Us(600), 0);
  const Trace tied = tie.Build();
  EXPECT_EQ(PrimaryDeviceId(tied), expected(tied));
  EXPECT_EQ(PrimaryDeviceId(tied), std::optional<int32_t>(0));
  SyntheticTrace more;
  more.Device(1).Kernel(1, Us(0), Us(51)).Device(0).Kernel(2, Us(0), Us(50));
  const Trace one_more = more.Build();
  EXPECT_EQ(PrimaryDeviceId(one_more), std::optional<int32_t>(1));
  SyntheticTrace copies_only;
  copies_only.Device(0).Copy(GpuKind::kMemcpyD2H, 1, Us(0), Us(5));
  EXPECT_EQ(PrimaryDeviceId(copies_only.Build()), std::nullopt);
  EXPECT_EQ(PrimaryDeviceId(Trace()), std::nullopt);
  for (const demo::DemoScenarioInfo& scenario : demo::DemoScenarios()) {
    demo::DemoOptions options;
    options.scenario = std::string(scenario.name);
    auto demo = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(demo.ok()) << scenario.name;
    EXPECT_EQ(PrimaryDeviceId(*demo), expected(*demo)) << scenario.name;
    EXPECT_TRUE(PrimaryDeviceId(*demo).has_value()) << scenario.name;
  }
}

}  // namespace
}  // namespace stepline::analysis
