// Compare summary and chart logic: value and delta formatting per unit,
// green/red tone with its noise threshold and sense, which rows are shown,
// display labels, and the per-step series buckets (means over each bucket).
#include "ui/compare/compare_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ui/compare/compare_chart.h"

namespace stepline::ui {
namespace {

using analysis::Change;
using analysis::Sense;
using analysis::SummaryGroup;
using analysis::SummaryRow;
using analysis::SummaryUnit;

SummaryRow Row(SummaryUnit unit, Sense sense, double a, double b, SummaryGroup g = SummaryGroup::kRun) {
  SummaryRow r;
  r.group = g;
  r.unit = unit;
  r.sense = sense;
  r.a = a;
  r.b = b;
  r.delta = b - a;
  r.delta_percent = a == 0 ? (b == 0 ? 0 : std::numeric_limits<double>::quiet_NaN()) : 100 * (b - a) / a;
  return r;
}

TEST(CompareSummaryTest, FormatsValuesAndSignedDeltasPerUnit) {
  EXPECT_EQ(FormatSummaryValue(SummaryUnit::kCount, 12), "12");
  EXPECT_EQ(FormatSummaryValue(SummaryUnit::kPercent, 63.04), "63.0%");
  EXPECT_EQ(FormatSummaryValue(SummaryUnit::kNs, 1'500'000), "1.500 ms");
  EXPECT_EQ(FormatSummaryDelta(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 2'000'000, 1'500'000)), "-500.0 µs");
  EXPECT_EQ(FormatSummaryDelta(Row(SummaryUnit::kCount, Sense::kNeutral, 6, 9)), "+3");
  EXPECT_EQ(FormatSummaryDelta(Row(SummaryUnit::kPercent, Sense::kHigherIsBetter, 40, 41.5)), "+1.5 pp");
  EXPECT_EQ(FormatSummaryDelta(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 5, 5)), "0");
  EXPECT_EQ(FormatDeltaPercent(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 200, 250)), "+25.0%");
  EXPECT_EQ(FormatDeltaPercent(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 200, 150)), "-25.0%");
  EXPECT_EQ(FormatDeltaPercent(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 150)), "new");
  EXPECT_EQ(FormatDeltaPercent(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 0)), "0%");
}

TEST(CompareSummaryTest, ToneFollowsSenseAndIgnoresNoise) {
  // Lower time is better.
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 1000, 900)), Change::kImprovement);
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 1000, 1100)), Change::kRegression);
  // Higher GPU busy is better.
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kPercent, Sense::kHigherIsBetter, 50, 60)), Change::kImprovement);
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kPercent, Sense::kHigherIsBetter, 50, 40)), Change::kRegression);
  // A step count is neither.
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kCount, Sense::kNeutral, 5, 9)), Change::kNone);
  // 0.1% is timing noise; appearing from nothing is not.
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 100'000, 100'100)), Change::kNone);
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 10)), Change::kRegression);
  EXPECT_EQ(SummaryTone(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 10, 0)), Change::kImprovement);
}

// Regression: the window hid category rows with no time in either run while
// `stepline diff` lists every one; now they are listed, marked empty (dimmed).
TEST(CompareSummaryTest, MarksCategoriesAbsentFromBothRunsEmptyAndLabelsRows) {
  EXPECT_FALSE(IsEmptySummaryRow(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 0, SummaryGroup::kRun)));
  EXPECT_TRUE(IsEmptySummaryRow(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 0, SummaryGroup::kBreakdown)));
  EXPECT_FALSE(IsEmptySummaryRow(Row(SummaryUnit::kNs, Sense::kLowerIsBetter, 0, 3, SummaryGroup::kIdleByCause)));
  analysis::CompareSide side;
  const analysis::Comparison c{side, side, analysis::BuildSummaryRows(side, side), {}, {}, true, {}};
  ASSERT_EQ(c.summary.size(), 3u + analysis::kTimeCategoryCount + analysis::kIdleCauseCount);
  EXPECT_EQ(SummaryLabel(c, 1), "Mean step time");
  EXPECT_EQ(SummaryLabel(c, 3), "Compute");                               // first category
  EXPECT_EQ(SummaryLabel(c, 3 + analysis::kTimeCategoryCount), "Input");  // first cause
  EXPECT_EQ(SummaryLabel(c, c.summary.size() - 1), "Other");              // last cause
}

analysis::CompareSide SideWithSteps(std::vector<DurNs> durs) {
  analysis::CompareSide s;
  s.steps = durs.size();
  for (size_t i = 0; i < durs.size(); ++i) {
    s.step_names.push_back("step" + std::to_string(i));
    s.step_start_ns.push_back(static_cast<TimeNs>(i) * 1'000'000);
    s.step_dur_ns.push_back(durs[i]);
    analysis::CategoryNs b{};
    b[0] = durs[i] / 2;            // compute
    b[6] = durs[i] - durs[i] / 2;  // idle: input
    s.step_breakdown.push_back(b);
  }
  return s;
}

TEST(CompareChartTest, BucketsAverageTheirStepsAndKeepIndices) {
  const auto side = SideWithSteps({100, 300, 200, 400, 1000});
  const auto one = BucketCompareSide(side, 1);
  ASSERT_EQ(one.size(), 5u);
  EXPECT_EQ(one[3].first, 3u);
  EXPECT_EQ(one[3].mean_dur_ns, 400);
  const auto two = BucketCompareSide(side, 2);
  ASSERT_EQ(two.size(), 3u);
  EXPECT_EQ(two[0].mean_dur_ns, 200);  // (100 + 300) / 2
  EXPECT_EQ(two[0].min_dur_ns, 100);
  EXPECT_EQ(two[0].max_dur_ns, 300);
  EXPECT_EQ(two[0].mean_ns[0], 100);  // (50 + 150) / 2
  EXPECT_EQ(two[2].first, 4u);
  EXPECT_EQ(two[2].count(), 1u);  // the last bucket holds the rest
  EXPECT_TRUE(BucketCompareSide(analysis::CompareSide{}, 3).empty());
}

TEST(CompareChartTest, TenThousandStepsFitInAFewHundredPixels) {
  std::vector<DurNs> durs(10'000, 1'000);
  durs[9'999] = 50'000;
  const auto side = SideWithSteps(durs);
  const size_t per = StepsPerBucket(durs.size(), 400, 3);
  const auto buckets = BucketCompareSide(side, per);
  EXPECT_LE(buckets.size(), 400u / 3);
  size_t covered = 0;
  for (const auto& b : buckets) covered += b.count();
  EXPECT_EQ(covered, durs.size());
  EXPECT_EQ(buckets.back().max_dur_ns, 50'000);  // the outlier survives as the bucket's max
}

// The series chart had no x axis; its step numbers thin out when crowded.
TEST(CompareChartTest, StepAxisLabelsEveryStepWhenRoomyThinnedOnA125Stride) {
  EXPECT_TRUE(StepAxisLabels(0, 500, 20).empty());
  const std::vector<uint32_t> all = StepAxisLabels(10, 500, 20);  // 50 px a step
  ASSERT_EQ(all.size(), 10u);
  EXPECT_EQ(all.back(), 9u);
  // 1,000 steps in 500 px, labels 20 px: every 50th (0.5 px a step).
  const std::vector<uint32_t> thin = StepAxisLabels(1000, 500, 20);
  ASSERT_EQ(thin.size(), 20u);
  EXPECT_EQ(thin[1], 50u);
  for (size_t i = 1; i < thin.size(); ++i) EXPECT_GE((thin[i] - thin[i - 1]) * 0.5f, 20.f);
  // 30 steps in 300 px, labels 25 px: every 5th (2 would be 20 px apart).
  const std::vector<uint32_t> five = StepAxisLabels(30, 300, 25);
  ASSERT_GE(five.size(), 2u);
  EXPECT_EQ(five[1], 5u);
}

}  // namespace
}  // namespace stepline::ui
