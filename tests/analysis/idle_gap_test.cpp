// ComputeIdleGaps: each rule of the cause algorithm (docs/analysis.md) on hand-built
// traces whose weights are computed by hand in the comments.
#include "model/analysis/idle_gap.h"

#include <gtest/gtest.h>

#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

struct Analyzed {
  Trace trace;
  StepSet steps;
  std::vector<IdleGap> gaps;
};

Analyzed Analyze(SyntheticTrace& b) {
  Analyzed a{b.Build(), {}, {}};
  const std::vector<DeviceActivity> devices = ComputeDeviceActivity(a.trace);
  EXPECT_EQ(devices.size(), 1u);
  a.steps = ComputeSteps(a.trace);
  a.gaps = ComputeIdleGaps(a.trace, devices.at(0), a.steps, IdleCauseTable::Default(), BuildLaunchIndex(a.trace));
  return a;
}

// The gap [100, 300) µs between K1 and K2 of every test below.
const IdleGap& MiddleGap(const Analyzed& a) {
  for (const IdleGap& g : a.gaps) {
    if (g.start_ns == Us(100)) return g;
  }
  ADD_FAILURE() << "no gap at 100 us";
  return a.gaps.front();
}

std::string_view Name(const Analyzed& a, SliceId s) { return a.trace.str(a.trace.slices().name()[s.index()]); }

// main: ProfilerStep#1 [0, 1000) wraps everything; K1 [10, 100) launched at 2.
SyntheticTrace Base() {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1000));
  b.Kernel(7, Us(10), Us(90), "K1").LaunchedFrom("main", Us(2), Us(2));
  return b;
}

TEST(IdleGapTest, InputWithEdgesLaunchDelayAndStep) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("IteratorGetNext", Us(150), Us(140));
  b.Kernel(7, Us(300), Us(100), "K2").LaunchedFrom("main", Us(290), Us(4));
  Analyzed a = Analyze(b);
  // Leading edge [0, 10): K1's launch call [2, 4) covers 2 us, the thread
  // idles 8 us and has no other thread to ask -> other (rule 3b).
  // Middle [100, 300): IteratorGetNext 140 us (input) vs the launch 4 us.
  // Trailing edge [400, 1000): no kernel ends it -> other.
  ASSERT_EQ(a.gaps.size(), 3u);
  EXPECT_FALSE(a.gaps[0].in_active_span);
  EXPECT_EQ(a.gaps[0].cause, IdleCause::kOther);
  EXPECT_TRUE(a.gaps[0].cause_events.empty());
  EXPECT_EQ(a.gaps[0].end_ns, Us(10));
  const IdleGap& g = a.gaps[1];
  EXPECT_TRUE(g.in_active_span);
  EXPECT_EQ(g.cause, IdleCause::kInput);
  EXPECT_EQ(g.step, 0);
  EXPECT_EQ(Name(a, g.next_kernel), "K2");
  EXPECT_EQ(Name(a, g.launch), "cudaLaunchKernel");
  EXPECT_EQ(g.launch_delay_ns, Us(10));
  ASSERT_EQ(g.cause_events.size(), 1u);
  EXPECT_EQ(Name(a, g.cause_events[0].slice), "IteratorGetNext");
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(140));
  EXPECT_FALSE(a.gaps[2].in_active_span);
  EXPECT_EQ(a.gaps[2].cause, IdleCause::kOther);
  EXPECT_TRUE(a.gaps[2].next_kernel.is_none());
  EXPECT_EQ(a.gaps[2].end_ns, Us(1000));
}

TEST(IdleGapTest, InnermostMatchDecidesAndUnmatchedChildrenInherit) {
  SyntheticTrace b = Base();
  // DataLoader [100, 250) input, with pin_memory_batch [120, 200) (unmatched:
  // inherits input) and cudaStreamSynchronize [210, 240) (sync, innermost).
  // aten::add [260, 290) has no matching ancestor -> host_compute, except its
  // launch call [285, 289).
  // input = 150 - 30 = 120, sync = 30, host_compute = 30 - 4 = 26, launch = 4.
  b.Thread("main")
      .Slice("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", Us(100), Us(150))
      .Slice("pin_memory_batch", Us(120), Us(80))
      .Slice("cudaStreamSynchronize", Us(210), Us(30))
      .Slice("aten::add", Us(260), Us(30));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(285), Us(4));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kInput);
  ASSERT_EQ(g.cause_events.size(), 1u);  // only the winning category's events
  EXPECT_EQ(Name(a, g.cause_events[0].slice), "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(120));
  EXPECT_EQ(g.cause_events[0].category, HostCategory::kInput);
}

TEST(IdleGapTest, HostComputeBlamesTheOutermostUnmatchedEvent) {
  SyntheticTrace b = Base();
  // on_train_batch_end [100, 280) minus the sync [200, 210) = 170 host_compute
  // (log_metrics inside it is blamed on it); aten::copy_ [285, 295) minus its
  // launch [290, 294) = 6 more host_compute of its own.
  b.Thread("main")
      .Slice("on_train_batch_end", Us(100), Us(180))
      .Slice("log_metrics", Us(110), Us(90))
      .Slice("cudaStreamSynchronize", Us(200), Us(10))
      .Slice("aten::copy_", Us(285), Us(10));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(290), Us(4));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kHostCompute);
  ASSERT_EQ(g.cause_events.size(), 2u);
  EXPECT_EQ(Name(a, g.cause_events[0].slice), "on_train_batch_end");
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(170));
  EXPECT_EQ(Name(a, g.cause_events[1].slice), "aten::copy_");
  EXPECT_EQ(g.cause_events[1].overlap_ns, Us(6));
}

TEST(IdleGapTest, WholeStepWrappersAreTransparent) {
  SyntheticTrace b = Base();
  // run_epoch wraps the whole step: without the rule it would be the
  // outermost unmatched event and take the blame instead of optimizer.step.
  b.Thread("main").Slice("run_epoch", Us(0), Us(2000)).Slice("optimizer.step", Us(100), Us(190));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(292), Us(4));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kHostCompute);
  ASSERT_FALSE(g.cause_events.empty());
  EXPECT_EQ(Name(a, g.cause_events[0].slice), "optimizer.step");
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(190));
}

TEST(IdleGapTest, BackToBackLaunchCalls) {
  SyntheticTrace b = Base();
  // Gap [100, 130): three launch calls cover 10 + 10 + 8 us.
  b.Thread("main").Slice("cudaMemsetAsync", Us(100), Us(10)).Slice("cudaMemsetAsync", Us(110), Us(10));
  b.Kernel(7, Us(130), Us(10), "K2").LaunchedFrom("main", Us(120), Us(8));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.end_ns, Us(130));
  EXPECT_EQ(g.cause, IdleCause::kLaunch);
  ASSERT_EQ(g.cause_events.size(), 3u);
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(10));
  EXPECT_EQ(g.cause_events[2].overlap_ns, Us(8));
  EXPECT_EQ(g.launch_delay_ns, Us(10));
}

TEST(IdleGapTest, CopyCoveringMostOfTheGap) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("IteratorGetNext", Us(100), Us(180));
  b.Copy(GpuKind::kMemcpyH2D, 8, Us(120), Us(130));  // 130 / 200 = 65% of the gap
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(290), Us(4));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kMemcpyH2D);
  ASSERT_EQ(g.cause_events.size(), 1u);
  EXPECT_EQ(Name(a, g.cause_events[0].slice), "Memcpy HtoD");
  EXPECT_EQ(g.cause_events[0].overlap_ns, Us(130));
}

TEST(IdleGapTest, CopyCoveringLessThanHalfDoesNotDecide) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("IteratorGetNext", Us(100), Us(180));
  b.Copy(GpuKind::kMemcpyD2H, 8, Us(120), Us(100));  // exactly 50%: not "most"
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(290), Us(4));
  EXPECT_EQ(MiddleGap(Analyze(b)).cause, IdleCause::kInput);
}

TEST(IdleGapTest, LaunchIssuedBeforeTheGapIsOther) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("IteratorGetNext", Us(100), Us(180));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(50), Us(4));
  Analyzed a = Analyze(b);
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kOther);
  EXPECT_EQ(g.launch_delay_ns, Us(250));
  EXPECT_TRUE(g.cause_events.empty());
}

TEST(IdleGapTest, UnlinkedKernelIsOther) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("IteratorGetNext", Us(100), Us(180));
  b.Kernel(7, Us(300), Us(10), "K2");
  const Analyzed a = Analyze(b);  // kept: g refers into it (ASan found the dangling temporary)
  const IdleGap& g = MiddleGap(a);
  EXPECT_EQ(g.cause, IdleCause::kOther);
  EXPECT_TRUE(g.launch.is_none());
  EXPECT_EQ(g.launch_delay_ns, -1);
}

// With no event in the window (the launch call is stamped after the kernel
// start here, as clock skew does), a sync that just ended decides.
TEST(IdleGapTest, EmptyWindowAfterARecentSyncIsSync) {
  for (const auto& [sync_end_us, expected] :
       {std::pair<int, IdleCause>{98, IdleCause::kSync}, {95, IdleCause::kSync}, {80, IdleCause::kOther}}) {
    SyntheticTrace b = Base();
    b.Thread("main").Slice("cudaStreamSynchronize", Us(50), Us(sync_end_us - 50));
    b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(305), Us(2));
    EXPECT_EQ(MiddleGap(Analyze(b)).cause, expected) << "sync ending at " << sync_end_us << " us";
  }
}

TEST(IdleGapTest, GapsAcrossStreamsAndDegenerateInputs) {
  // Kernels on two streams overlap: [0,50) and [40,100) leave no gap; [150,200) follows.
  Trace t = SyntheticTrace().Kernel(1, Us(0), Us(50)).Kernel(2, Us(40), Us(60)).Kernel(1, Us(150), Us(50)).Build();
  const std::vector<DeviceActivity> d = ComputeDeviceActivity(t);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].busy_ns, Us(150));
  EXPECT_EQ(d[0].kernel_ns, Us(160));
  const StepSet steps = ComputeSteps(t);
  const auto gaps = ComputeIdleGaps(t, d[0], steps, IdleCauseTable::Default(), BuildLaunchIndex(t));
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(gaps[0].start_ns, Us(100));
  EXPECT_EQ(gaps[0].end_ns, Us(150));
  // No steps and a device with no kernels: nothing to attribute.
  Trace copies_only = SyntheticTrace().Copy(GpuKind::kMemcpyH2D, 1, 0, Us(5)).Build();
  const auto d2 = ComputeDeviceActivity(copies_only);
  ASSERT_EQ(d2.size(), 1u);
  EXPECT_TRUE(
      ComputeIdleGaps(copies_only, d2[0], StepSet{}, IdleCauseTable::Default(), BuildLaunchIndex(copies_only)).empty());
}

// Rule 3b: a launch call explains only the time it covers. In
// [100, 300) main idles but for K2's launch [296, 300); what the process's
// other threads did decides: work covering most of the gap is named, less
// is `other`; the launch is never blamed.
TEST(IdleGapTest, IdleLaunchingThreadAsksTheOtherThreads) {
  struct Case {
    const char* name;
    DurNs other_ns;
    IdleCause want;
  };
  const Case kCases[] = {{"jit_compile", Us(150), IdleCause::kHostCompute},
                         {"enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", Us(120), IdleCause::kInput},
                         {"jit_compile", Us(60), IdleCause::kOther},
                         {"cudaStreamSynchronize", Us(190), IdleCause::kOther}};  // waiting is not work
  for (const Case& c : kCases) {
    SyntheticTrace b = Base();
    b.Thread("compiler").Slice(c.name, Us(120), c.other_ns);
    b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(296), Us(4), "hipModuleLaunchKernel");
    Analyzed a = Analyze(b);
    const IdleGap& g = MiddleGap(a);
    EXPECT_EQ(g.cause, c.want) << c.name << " " << c.other_ns;
    for (const BlamedEvent& e : g.cause_events) EXPECT_EQ(Name(a, e.slice), c.name);
    EXPECT_EQ(g.cause_events.empty(), c.want == IdleCause::kOther) << c.name;
  }
  // A launch covering most of the window is still the cause.
  SyntheticTrace b = Base();
  b.Thread("compiler").Slice("jit_compile", Us(100), Us(200));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(180), Us(120));
  Analyzed a = Analyze(b);
  EXPECT_EQ(MiddleGap(a).cause, IdleCause::kLaunch);
}

// The profiler's own trace-wide span is never blamed.
TEST(IdleGapTest, ProfilerSpansAreNeverBlamed) {
  SyntheticTrace b = Base();
  b.Thread("main").Slice("PyTorch Profiler (0)", Us(50), Us(900));
  b.Kernel(7, Us(300), Us(10), "K2").LaunchedFrom("main", Us(290), Us(4));
  Analyzed a = Analyze(b);
  for (const BlamedEvent& e : MiddleGap(a).cause_events) EXPECT_NE(Name(a, e.slice), "PyTorch Profiler (0)");
}

}  // namespace
}  // namespace stepline::analysis
