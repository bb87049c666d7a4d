// Step-chart bucketing: bars stay >= the minimum width from 1 to 10,000
// steps, every step lands in exactly one bucket, and bucket means are exact.
#include "ui/step_chart.h"

#include <gtest/gtest.h>

#include <vector>

#include "ui/theme.h"

namespace stepline::ui {
namespace {

using analysis::ReportStep;
using analysis::TimeCategory;

std::vector<ReportStep> MakeSteps(size_t n) {
  std::vector<ReportStep> steps(n);
  for (size_t i = 0; i < n; ++i) {
    steps[i].name = std::to_string(i);
    steps[i].start_ns = static_cast<TimeNs>(i) * 1000;
    steps[i].dur_ns = 100 + static_cast<DurNs>(i % 7) * 10;  // 100..160
    analysis::At(steps[i].breakdown, TimeCategory::kCompute) = 60;
    analysis::At(steps[i].breakdown, TimeCategory::kIdleInput) = steps[i].dur_ns - 60;
  }
  return steps;
}

TEST(StepChartTest, OneBarPerStepWhenTheyFit) {
  EXPECT_EQ(StepsPerBucket(1, 600.f, 3.f), 1u);
  EXPECT_EQ(StepsPerBucket(200, 600.f, 3.f), 1u);
  EXPECT_EQ(StepsPerBucket(0, 600.f, 3.f), 1u);
  const auto steps = MakeSteps(1);
  const auto buckets = BucketSteps(steps, 600.f, 3.f);
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].mean_dur_ns, steps[0].dur_ns);
}

TEST(StepChartTest, TenThousandStepsKeepBarsAtLeastThreePixels) {
  const auto steps = MakeSteps(10'000);
  for (float width : {50.f, 333.f, 600.f, 1900.f}) {
    const auto buckets = BucketSteps(steps, width, 3.f);
    ASSERT_FALSE(buckets.empty());
    EXPECT_GE(width / static_cast<float>(buckets.size()), 3.f) << width;
    // Contiguous, complete, in order.
    uint32_t next = 0;
    for (const StepBucket& b : buckets) {
      EXPECT_EQ(b.first, next);
      EXPECT_GT(b.end, b.first);
      next = b.end;
    }
    EXPECT_EQ(next, 10'000u);
  }
  // 600 px / 3 px = 200 bars -> 50 steps per bar.
  EXPECT_EQ(StepsPerBucket(10'000, 600.f, 3.f), 50u);
}

TEST(StepChartTest, BucketMeansAreTheStepsMeans) {
  const auto steps = MakeSteps(10);  // durations 100,110,...,160,100,110,120
  const auto buckets = BucketSteps(steps, 12.f, 3.f);  // 4 bars -> 3 steps per bar, last holds 1
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets[0].count(), 3u);
  EXPECT_EQ(buckets[0].mean_dur_ns, 110);  // (100 + 110 + 120) / 3
  EXPECT_EQ(buckets[0].min_dur_ns, 100);
  EXPECT_EQ(buckets[0].max_dur_ns, 120);
  EXPECT_EQ(analysis::At(buckets[0].mean_ns, TimeCategory::kCompute), 60);
  EXPECT_EQ(analysis::At(buckets[0].mean_ns, TimeCategory::kIdleInput), 50);
  EXPECT_EQ(buckets[3].count(), 1u);
  EXPECT_EQ(buckets[3].mean_dur_ns, 120);
  const StepBucket mean = MeanBucket(steps);
  EXPECT_EQ(mean.count(), 10u);
  EXPECT_EQ(mean.mean_dur_ns, (100 + 110 + 120 + 130 + 140 + 150 + 160 + 100 + 110 + 120) / 10);
}

TEST(StepChartTest, CategoryAtFractionStacksFromTheBottom) {
  const auto steps = MakeSteps(1);  // 100 ns: 60 compute, 40 idle input
  const StepBucket b = BucketSteps(steps, 100.f, 3.f)[0];
  EXPECT_EQ(CategoryAtFraction(b, 0.1), static_cast<int>(TimeCategory::kCompute));
  EXPECT_EQ(CategoryAtFraction(b, 0.59), static_cast<int>(TimeCategory::kCompute));
  EXPECT_EQ(CategoryAtFraction(b, 0.61), static_cast<int>(TimeCategory::kIdleInput));
  EXPECT_EQ(CategoryAtFraction(b, 1.01), -1);
  EXPECT_EQ(CategoryAtFraction(b, -0.1), -1);
}

// Regression: bars stopped at 96 px, so 3 steps took 360 of 1920 px.
TEST(StepChartTest, AFewBarsFillTheWidthButOneIsNoSlab) {
  const float w = 1800.f;
  const BarLayout three = StepBarLayout(3, w, 1.f);
  EXPECT_FLOAT_EQ(three.width * 3, w) << "three steps fill the chart";
  const BarLayout one = StepBarLayout(1, w, 1.f);
  EXPECT_LE(one.width, w * theme::kChartMaxBarShare + 0.01f);
  EXPECT_GT(one.width, 96.f);
  // Wide bars get a wider gap, up to a cap; bars a few px wide get none.
  EXPECT_GT(three.gap, theme::kChartBarGap);
  EXPECT_LE(three.gap, theme::kChartMaxBarGap);
  EXPECT_LT(three.gap, three.width / 4);
  EXPECT_EQ(StepBarLayout(600, w, 1.f).gap, 0.f);
  const BarLayout many = StepBarLayout(200, w, 1.f);
  EXPECT_FLOAT_EQ(many.width * 200, w);
  EXPECT_GE(many.gap, theme::kChartBarGap);  // 9 px bars: about the narrow-bar gap
  EXPECT_LT(many.gap, 2 * theme::kChartBarGap);
  EXPECT_EQ(StepBarLayout(0, w, 1.f).width, 0.f);
}

// Outlier steps are counted per bar, and the histogram puts every
// step in exactly one bin, the longest in the last, outliers counted apart.
TEST(StepChartTest, BucketsCountTheirOutlierSteps) {
  analysis::Report r;
  r.steps = MakeSteps(10);
  r.outlier_steps.push_back({3, "3", 500, 400, "idle_other", {}, {}});
  r.outlier_steps.push_back({7, "7", 500, 400, "idle_other", {}, {}});
  const std::vector<uint8_t> mask = OutlierMask(r);
  ASSERT_EQ(mask.size(), 10u);
  EXPECT_EQ(mask[3], 1);
  EXPECT_EQ(mask[4], 0);
  auto buckets = BucketSteps(r.steps, 600.f, 3.f, mask);
  ASSERT_EQ(buckets.size(), 10u);
  EXPECT_EQ(buckets[3].outliers, 1u);
  EXPECT_EQ(buckets[2].outliers, 0u);
  buckets = BucketSteps(r.steps, 12.f, 3.f, mask);  // 3 steps per bar: [0,3) [3,6) [6,9) [9,10)
  ASSERT_EQ(buckets.size(), 4u);
  EXPECT_EQ(buckets[0].outliers, 0u);
  EXPECT_EQ(buckets[1].outliers, 1u);
  EXPECT_EQ(buckets[2].outliers, 1u);
}

TEST(StepChartTest, HistogramBinsEveryStepOnce) {
  std::vector<ReportStep> steps = MakeSteps(16);  // durations 100..160 by 10
  steps[5].dur_ns = 1000;                         // a slow one
  std::vector<uint8_t> mask(16, 0);
  mask[5] = 1;
  const StepHistogram h = BuildStepHistogram(steps, mask, 40);
  ASSERT_EQ(h.counts.size(), 4u);  // ceil(sqrt(16))
  EXPECT_EQ(h.lo_ns, 100);
  uint32_t total = 0;
  for (uint32_t c : h.counts) total += c;
  EXPECT_EQ(total, 16u);
  EXPECT_EQ(h.counts.back(), 1u);  // only the slow step is that far out
  EXPECT_EQ(h.outliers.back(), 1u);
  EXPECT_EQ(h.counts.front(), 15u);
  EXPECT_EQ(h.max_count(), 15u);
  EXPECT_GT(h.lo_ns + h.bin_ns * 4, 1000);  // the longest lies inside the last bin
  // Bins are capped, and one step (or equal steps) makes one bin.
  EXPECT_EQ(BuildStepHistogram(MakeSteps(10000), {}, 40).counts.size(), 40u);
  const StepHistogram one = BuildStepHistogram(MakeSteps(1), {}, 40);
  ASSERT_EQ(one.counts.size(), 1u);
  EXPECT_EQ(one.counts[0], 1u);
  EXPECT_TRUE(BuildStepHistogram({}, {}, 40).counts.empty());
}

}  // namespace
}  // namespace stepline::ui
