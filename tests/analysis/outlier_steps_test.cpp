// OutlierSteps: the threshold rule, the category that grew,
// the host events blamed (absent or much shorter in typical steps, nested
// repeats dropped), and the recommendation sentence.
#include "model/analysis/outlier_steps.h"

#include <gtest/gtest.h>

#include <string>

#include "model/analysis/trace_analysis.h"
#include "tests/support/synthetic_trace.h"

namespace stepline::analysis {
namespace {

using testing::SyntheticTrace;
using testing::Us;

TEST(OutlierStepsTest, ThresholdIsMedianPlusMaxOfThreeMadAndTwentyPercent) {
  DurNs median = 0, mad = 0;
  // Flat steps: MAD 0, so 20% of the median decides.
  EXPECT_EQ(OutlierThresholdNs({100, 100, 100, 100, 500}, &median, &mad), 120);
  EXPECT_EQ(median, 100);
  EXPECT_EQ(mad, 0);
  // Spread steps: median 100, deviations {20, 20, 0, 20, 20, 0, 400} -> MAD 20, 3 MAD = 60 > 20.
  EXPECT_EQ(OutlierThresholdNs({80, 120, 100, 80, 120, 100, 500}, &median, &mad), 160);
  EXPECT_EQ(median, 100);
  EXPECT_EQ(mad, 20);
  // An even count takes the mean of the middle two: median 110.
  EXPECT_EQ(OutlierThresholdNs({100, 120, 100, 120}, &median), 110 + 30);  // MAD 10
  EXPECT_EQ(median, 110);
  // Too few steps to have a typical one.
  EXPECT_EQ(OutlierThresholdNs({100, 100, 900}), 0);
}

// Ten 100 us steps, each with a 40 us kernel and a `train.py(20): train_step`
// frame; steps 3 and 7 also save a checkpoint (a 100 us save with a nested
// `_save`) inside that frame, with no kernel meanwhile, so they take 200 us.
Trace CheckpointTrace() {
  SyntheticTrace b;
  b.Thread("main").Slice("train.py(1): <module>", Us(0), Us(5000));  // wraps every step: never blamed
  TimeNs t = Us(100);
  for (int k = 0; k < 10; ++k) {
    const bool save = k == 3 || k == 7;
    const DurNs dur = save ? Us(200) : Us(100);
    b.Thread("main").Slice("ProfilerStep#" + std::to_string(k), t, dur);
    b.Slice("train.py(20): train_step", t + Us(5), dur - Us(10));
    b.Slice("forward", t + Us(10), Us(40));
    if (save) {
      b.Slice("torch/serialization.py(628): save", t + Us(90), Us(100));
      b.Slice("torch/serialization.py(853): _save", t + Us(95), Us(90));
    }
    b.Kernel(7, t + Us(20), Us(40), "gemm");
    t += dur;
  }
  return b.Build();
}

TEST(OutlierStepsTest, SlowStepsBlameTheSaveAndTheIdleThatGrew) {
  const Trace trace = CheckpointTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.steps.steps.size(), 10u);
  const OutlierSteps& o = a.outliers;
  EXPECT_EQ(o.median_ns, Us(100));
  ASSERT_EQ(o.steps.size(), 2u);
  EXPECT_EQ(o.steps[0].step, 3u);
  EXPECT_EQ(o.steps[1].step, 7u);
  EXPECT_EQ(o.steps[0].excess_ns, Us(100));
  EXPECT_EQ(o.excess_total_ns, Us(200));
  for (const OutlierStep& s : o.steps) {
    ASSERT_TRUE(s.has_cause);
    // No launch links in this trace: the extra idle is `other`.
    EXPECT_EQ(s.cause, TimeCategory::kIdleOther);
    ASSERT_FALSE(s.blamed.empty());
    EXPECT_EQ(trace.str(s.blamed[0].name), "torch/serialization.py(628): save");
    EXPECT_EQ(s.blamed[0].excess_ns, Us(100));
    for (const OutlierBlame& b : s.blamed) {
      // `_save` lies inside `save`; train_step is explained by it; forward is typical.
      EXPECT_NE(trace.str(b.name), "torch/serialization.py(853): _save");
      EXPECT_NE(trace.str(b.name), "train.py(20): train_step");
      EXPECT_NE(trace.str(b.name), "forward");
      EXPECT_NE(trace.str(b.name), "train.py(1): <module>");
    }
  }
  // 200 us of 1.2 ms is >= 5%: a recommendation names the save.
  const std::string sentence = OutlierRecommendation(trace, o, 10, a.step_stats.total_ns);
  EXPECT_EQ(sentence,
            "2 of 10 steps are 100 us slower: `save` (checkpointing) runs in them; move it off the training thread "
            "or save less often.");
  EXPECT_EQ(a.recommendations.back(), sentence);
  EXPECT_EQ(OutlierRecommendation(trace, o, 10, 100 * a.step_stats.total_ns), "");  // under 5%
}

TEST(OutlierStepsTest, SteadyStepsHaveNoOutliers) {
  SyntheticTrace b;
  b.Thread("main");
  for (int k = 0; k < 8; ++k) b.Slice("ProfilerStep#" + std::to_string(k), Us(100 * k), Us(90 + (k % 3) * 5));
  const Trace t = b.Build();
  const StepSet steps = ComputeSteps(t);
  const OutlierSteps o = ComputeOutlierSteps(t, steps, {});
  EXPECT_GT(o.threshold_ns, 0);
  EXPECT_TRUE(o.steps.empty());
}

TEST(OutlierStepsTest, WithoutBreakdownsThereIsNoCauseButStillBlame) {
  const Trace trace = CheckpointTrace();
  const StepSet steps = ComputeSteps(trace);
  const OutlierSteps o = ComputeOutlierSteps(trace, steps, {});
  ASSERT_EQ(o.steps.size(), 2u);
  EXPECT_FALSE(o.steps[0].has_cause);
  ASSERT_FALSE(o.steps[0].blamed.empty());
  EXPECT_EQ(trace.str(o.steps[0].blamed[0].name), "torch/serialization.py(628): save");
}

TEST(OutlierStepsTest, ShortEventName) {
  EXPECT_EQ(ShortEventName("torch/serialization.py(628): save"), "save");
  EXPECT_EQ(ShortEventName("ModelCheckpoint.on_epoch_end"), "ModelCheckpoint.on_epoch_end");
}

}  // namespace
}  // namespace stepline::analysis
