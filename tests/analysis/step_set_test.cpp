// ComputeSteps: each step source, their order of precedence, and the fallbacks.
#include "model/analysis/step_set.h"

#include <gtest/gtest.h>

#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

TEST(StepSetTest, StepsRowWinsOverProfilerStepsAndPrefersTheDevice) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#1", Us(0), Us(100))
                .Device(0)
                .StepsRow("0:a", Us(0), Us(10))
                .StepsRow("0:b", Us(10), Us(10))
                .StepsRow("0:c", Us(20), Us(10))
                .Device(1)
                .StepsRow("1:a", Us(5), Us(50))
                .Build();
  StepOptions o;
  o.device_id = 1;
  StepSet s = ComputeSteps(t, o);
  EXPECT_EQ(s.source, StepSource::kStepsRow);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].name, "1:a");
  EXPECT_EQ(s.steps[0].start_ns, Us(5));
  // Without a preference (and no host row) the fullest row is used.
  s = ComputeSteps(t);
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.steps[2].name, "0:c");
  EXPECT_EQ(s.steps[2].dur_ns, Us(10));
}

TEST(StepSetTest, ProfilerStepsOnTheHost) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("ProfilerStep#7", Us(0), Us(100))
                .Slice("ProfilerStep#8", Us(100), Us(120))
                .Slice("train_step", Us(10), Us(50))  // a marker name too, but ProfilerStep comes first
                .Kernel(7, Us(10), Us(20))
                .Build();
  StepSet s = ComputeSteps(t);
  EXPECT_EQ(s.source, StepSource::kProfilerStep);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].name, "ProfilerStep#7");
  EXPECT_EQ(s.steps[1].name, "ProfilerStep#8");
  EXPECT_EQ(s.steps[1].start_ns, Us(100));
  EXPECT_EQ(s.steps[1].dur_ns, Us(120));
  EXPECT_FALSE(s.steps[1].slice.is_none());
}

TEST(StepSetTest, StepMarkersTakeTheLargestGroupAndAppendStepNum) {
  SyntheticTrace b;
  b.Thread("main").Slice("train_loop", Us(0), Us(1000));  // one-off wrapper: a group of one
  for (int i = 0; i < 3; ++i) b.Slice("train", Us(100 * i + 10), Us(90)).Arg("step_num", 5 + i);
  b.Slice("test/setup", Us(500), Us(10));            // has '/', not a marker
  b.Thread("other").Slice("testing", Us(0), Us(5));  // a group of one elsewhere
  Trace t = b.Build();
  StepSet s = ComputeSteps(t);
  EXPECT_EQ(s.source, StepSource::kStepMarkers);
  ASSERT_EQ(s.steps.size(), 3u);
  EXPECT_EQ(s.steps[0].name, "train 5");
  EXPECT_EQ(s.steps[2].name, "train 7");
  EXPECT_EQ(s.steps[2].start_ns, Us(210));
}

TEST(StepSetTest, StepNumArgAloneMakesAMarker) {
  SyntheticTrace b;
  b.Thread("main");
  for (int i = 0; i < 2; ++i)
    b.Slice("StepTraceAnnotation", Us(50 * i), Us(40)).ArgString("step_num", std::to_string(i));
  Trace t = b.Build();
  StepSet s = ComputeSteps(t);
  EXPECT_EQ(s.source, StepSource::kStepMarkers);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[1].name, "StepTraceAnnotation 1");
}

TEST(StepSetTest, RegexOnTopLevelHostSlicesOnlyWhenNothingElse) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("iteration 1", Us(0), Us(100))
                .Slice("iteration inner", Us(10), Us(10))  // not top-level
                .Slice("iteration 2", Us(100), Us(100))
                .Slice("eval", Us(300), Us(10))
                .Kernel(7, Us(0), Us(10))
                .Build();
  StepOptions o;
  o.steps_regex = "^iteration [0-9]+$";
  StepSet s = ComputeSteps(t, o);
  EXPECT_EQ(s.source, StepSource::kRegex);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[1].name, "iteration 2");
  o.steps_regex = "iteration";  // searched, not anchored: the nested one is still not top-level
  EXPECT_EQ(ComputeSteps(t, o).steps.size(), 2u);
}

TEST(StepSetTest, InvalidRegexReportsAndFallsBackToTheGpuSpan) {
  Trace t = SyntheticTrace()
                .Thread("main")
                .Slice("x", Us(0), Us(5))
                .Kernel(7, Us(10), Us(20))
                .Kernel(8, Us(25), Us(30))
                .Copy(GpuKind::kMemcpyH2D, 9, Us(0), Us(100))
                .Build();
  StepOptions o;
  o.steps_regex = "([unclosed";
  StepSet s = ComputeSteps(t, o);
  EXPECT_NE(s.error.find("invalid --steps regex"), std::string::npos);
  EXPECT_EQ(s.source, StepSource::kGpuActiveSpan);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].start_ns, Us(10));  // kernels only: the copy does not widen the span
  EXPECT_EQ(s.steps[0].end_ns(), Us(55));
  EXPECT_TRUE(s.steps[0].slice.is_none());
}

TEST(StepSetTest, EmptyAndCpuOnlyTracesHaveNoSteps) {
  Trace empty = SyntheticTrace().Build();
  EXPECT_EQ(ComputeSteps(empty).source, StepSource::kNone);
  Trace cpu = SyntheticTrace().Thread("main").Slice("forward", Us(0), Us(5)).Build();
  EXPECT_TRUE(ComputeSteps(cpu).steps.empty());
}

TEST(StepSetTest, MarkerNameRule) {
  EXPECT_TRUE(IsStepMarkerName("train"));
  EXPECT_TRUE(IsStepMarkerName("train_step"));
  EXPECT_TRUE(IsStepMarkerName("test 3"));
  EXPECT_TRUE(IsStepMarkerName("TraceContext"));
  EXPECT_TRUE(IsStepMarkerName("ProfilerStep#4"));
  EXPECT_FALSE(IsStepMarkerName("train/dense/MatMul"));
  EXPECT_FALSE(IsStepMarkerName("Train"));
  EXPECT_FALSE(IsStepMarkerName("pretrain"));
  // Python frames and call signatures are never markers.
  EXPECT_FALSE(IsStepMarkerName("train_single_gpu.py(62): <module>"));
  EXPECT_FALSE(IsStepMarkerName("train.py(12): train_step"));
  EXPECT_FALSE(IsStepMarkerName("test_model(x)"));
  EXPECT_TRUE(IsPythonFrameName("train_single_gpu.py(62): <module>"));
  EXPECT_FALSE(IsPythonFrameName("train 5"));
}

// A Python frame wrapping the whole run is not a step, even
// with a step_num arg; the device-active span is, and the source says so.
TEST(StepSetTest, PythonFrameWrappingTheRunIsNotAStep) {
  SyntheticTrace b;
  b.Thread("main").Slice("train_single_gpu.py(62): <module>", Us(0), Us(1000));
  b.Slice("train_single_gpu.py(40): train", Us(10), Us(900)).Arg("step_num", 1);
  for (int i = 0; i < 4; ++i) b.Kernel(7, Us(100 + 100 * i), Us(50), "gemm");
  Trace t = b.Build();
  StepSet s = ComputeSteps(t);
  EXPECT_EQ(s.source, StepSource::kGpuActiveSpan);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].name, "all");
  EXPECT_NE(StepSourceSentence(s).find("device-active span"), std::string::npos) << StepSourceSentence(s);
}

TEST(StepSetTest, OneOffMarkerIsNotAStepWhenKernelsRepeat) {
  SyntheticTrace b;
  b.Thread("main").Slice("train", Us(0), Us(1000));
  for (int i = 0; i < 3; ++i) b.Kernel(7, Us(100 + 100 * i), Us(50), "gemm");
  Trace t = b.Build();
  StepSet s = ComputeSteps(t);
  EXPECT_EQ(s.source, StepSource::kGpuActiveSpan);
  ASSERT_EQ(s.steps.size(), 1u);
  EXPECT_EQ(s.steps[0].start_ns, Us(100));
  EXPECT_NE(s.note.find("`train`"), std::string::npos) << s.note;
  EXPECT_NE(StepSourceSentence(s).find(s.note), std::string::npos);

  // Without repeated kernels (one kernel of each name) the single marker stands.
  Trace single = SyntheticTrace().Thread("main").Slice("train", Us(0), Us(1000)).Kernel(7, Us(10), Us(5), "a").Build();
  EXPECT_EQ(ComputeSteps(single).source, StepSource::kStepMarkers);
  // Two markers are steps whatever the kernels do.
  SyntheticTrace two;
  two.Thread("main").Slice("train", Us(0), Us(500)).Slice("train", Us(500), Us(500));
  for (int i = 0; i < 3; ++i) two.Kernel(7, Us(100 + 100 * i), Us(50), "gemm");
  Trace two_trace = two.Build();
  EXPECT_EQ(ComputeSteps(two_trace).steps.size(), 2u);
}

}  // namespace
}  // namespace stepline::analysis
