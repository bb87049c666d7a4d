// Compare aligns phase with phase: two planted serving loops whose decode
// steps differ (demo::PlantedServingTrace, 2 ms against 3 ms) give per-phase
// rows with known values, and no overall mean-step row that would weigh the
// 10 ms prefill step against the decode steps. Training runs keep theirs.
#include <gtest/gtest.h>

#include <algorithm>

#include "demo/demo_planted.h"
#include "model/analysis/compare.h"

namespace stepline::analysis {
namespace {

const SummaryRow* PhaseSummaryRow(const Comparison& c, std::string_view label) {
  for (const SummaryRow& row : c.summary) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

TEST(ComparePhasesTest, ServingRunsCompareDecodeWithDecode) {
  const Trace a = demo::PlantedServingTrace(demo::PlantedEngine::kSglang, 2'000);
  const Trace b = demo::PlantedServingTrace(demo::PlantedEngine::kSglang, 3'000);
  const Comparison c = Compare(a, b);
  ASSERT_EQ(c.phases.size(), 3u);  // prefill, decode, mixed
  EXPECT_EQ(c.phases[0].phase, StepPhase::kPrefill);
  EXPECT_EQ(c.phases[1].phase, StepPhase::kDecode);
  EXPECT_EQ(c.phases[2].phase, StepPhase::kMixed);
  const PhaseCompareRow& decode = c.phases[1];
  EXPECT_EQ(decode.steps_a, 5u);
  EXPECT_EQ(decode.steps_b, 5u);
  EXPECT_EQ(decode.step_mean_a_ns, 2'000'000);
  EXPECT_EQ(decode.step_mean_b_ns, 3'000'000);
  EXPECT_DOUBLE_EQ(decode.tokens_per_s_a, 20 / 0.010);  // 5 steps x 4 tokens in 10 ms
  EXPECT_DOUBLE_EQ(decode.tokens_per_s_b, 20 / 0.015);
  EXPECT_EQ(c.phases[0].step_mean_a_ns, c.phases[0].step_mean_b_ns);  // prefill unchanged
  EXPECT_DOUBLE_EQ(c.phases[0].tokens_per_s_a, 2048 / 0.010);

  EXPECT_EQ(PhaseSummaryRow(c, "mean step"), nullptr) << "a prefill step is not compared with a decode step";
  ASSERT_NE(PhaseSummaryRow(c, "steps"), nullptr);
  const SummaryRow* mean = PhaseSummaryRow(c, "decode mean step");
  ASSERT_NE(mean, nullptr);
  EXPECT_EQ(mean->group, SummaryGroup::kPhase);
  EXPECT_EQ(mean->delta, 1'000'000);
  EXPECT_EQ(ChangeOf(*mean), Change::kRegression);
  const SummaryRow* rate = PhaseSummaryRow(c, "decode tokens/s");
  ASSERT_NE(rate, nullptr);
  EXPECT_EQ(rate->unit, SummaryUnit::kRate);
  EXPECT_EQ(ChangeOf(*rate), Change::kRegression);
  const SummaryRow* prefill = PhaseSummaryRow(c, "prefill mean step");
  ASSERT_NE(prefill, nullptr);
  EXPECT_EQ(ChangeOf(*prefill), Change::kNone);
  EXPECT_EQ(PhaseSummaryRow(c, "decode MFU"), nullptr) << "no FLOPs in the planted loop: MFU unknown, no row";
  // The phase rows follow the run rows, before the breakdown.
  const auto first_phase = std::find_if(c.summary.begin(), c.summary.end(),
                                        [](const SummaryRow& r) { return r.group == SummaryGroup::kPhase; });
  ASSERT_NE(first_phase, c.summary.begin());
  EXPECT_EQ((first_phase - 1)->group, SummaryGroup::kRun);
}

TEST(ComparePhasesTest, TrainingRunsKeepTheMeanStepAndHaveNoPhaseRows) {
  const Trace a = demo::PlantedCriticalPathTrace();
  const Comparison c = Compare(a, a);
  EXPECT_TRUE(c.phases.empty());
  EXPECT_NE(PhaseSummaryRow(c, "mean step"), nullptr);
  EXPECT_TRUE(std::none_of(c.summary.begin(), c.summary.end(),
                           [](const SummaryRow& r) { return r.group == SummaryGroup::kPhase; }));
  // A serving run against a training run: nothing to align, the overall rows stay.
  const Comparison mixed = Compare(a, demo::PlantedServingTrace(demo::PlantedEngine::kVllm));
  EXPECT_TRUE(mixed.phases.empty());
  EXPECT_NE(PhaseSummaryRow(mixed, "mean step"), nullptr);
}

TEST(ComparePhasesTest, MfuAndTokenRowsOnlyWhenBothRunsKnowThem) {
  PhaseCompareRow row;
  row.phase = StepPhase::kDecode;
  row.steps_a = 2;
  row.steps_b = 0;  // B has no decode steps
  row.step_mean_a_ns = 5;
  row.tokens_per_s_a = 100;
  row.mfu_percent_a = 40;
  row.mfu_percent_b = 50;
  std::vector<SummaryRow> rows;
  AddPhaseSummaryRows(std::span<const PhaseCompareRow>(&row, 1), &rows);
  ASSERT_EQ(rows.size(), 2u);  // mean step and MFU; tokens/s unknown in B
  EXPECT_EQ(rows[0].label, "decode mean step");
  EXPECT_EQ(ChangeOf(rows[0]), Change::kNone) << "a phase only one run has is neither better nor worse";
  EXPECT_EQ(rows[1].label, "decode MFU");
  EXPECT_EQ(rows[1].unit, SummaryUnit::kPercent);
  EXPECT_EQ(ChangeOf(rows[1]), Change::kImprovement);
}

}  // namespace
}  // namespace stepline::analysis
