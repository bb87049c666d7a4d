// The Mann-Whitney verdict of step_verdict.h on hand-made samples: equal
// samples are no_change, a clear shift either way is slower / faster, a
// shift inside the noise or below the minimum change is no_change, too few
// steps never decide, and ties are handled.
#include "model/analysis/step_verdict.h"

#include <gtest/gtest.h>

#include <vector>

namespace stepline::analysis {
namespace {

std::vector<DurNs> Noisy(DurNs base, int n, DurNs spread) {
  std::vector<DurNs> v;
  for (int i = 0; i < n; ++i) v.push_back(base + (i * 7919 % 11 - 5) * spread / 5);
  return v;
}

TEST(StepVerdictTest, ASampleAgainstItselfIsNoChange) {
  const auto a = Noisy(1'000'000, 20, 50'000);
  const StepVerdict v = ComputeStepVerdict(a, a);
  EXPECT_EQ(v.result, VerdictResult::kNoChange);
  EXPECT_DOUBLE_EQ(v.change_percent, 0);
  EXPECT_NEAR(v.p_value, 1.0, 1e-9);
  EXPECT_EQ(v.a_steps, 20u);
}

TEST(StepVerdictTest, AClearShiftIsSlowerOrFaster) {
  const auto a = Noisy(1'000'000, 20, 20'000);
  const auto b = Noisy(1'200'000, 20, 20'000);
  const StepVerdict slower = ComputeStepVerdict(a, b);
  EXPECT_EQ(slower.result, VerdictResult::kSlower);
  EXPECT_NEAR(slower.change_percent, 20.0, 0.5);
  EXPECT_GT(slower.confidence, 0.999);
  EXPECT_GT(slower.z, 0);
  const StepVerdict faster = ComputeStepVerdict(b, a);
  EXPECT_EQ(faster.result, VerdictResult::kFaster);
  EXPECT_LT(faster.change_percent, 0);
}

TEST(StepVerdictTest, AShiftInsideTheNoiseIsNoChange) {
  const auto a = Noisy(1'000'000, 10, 200'000);
  const auto b = Noisy(1'020'000, 10, 200'000);
  const StepVerdict v = ComputeStepVerdict(a, b);
  EXPECT_EQ(v.result, VerdictResult::kNoChange);
  EXPECT_GT(v.p_value, 0.05);
}

TEST(StepVerdictTest, ASignificantButTinyChangeIsNoChange) {
  // Identical noise-free steps: any shift ranks perfectly, but 0.5% < 1%.
  const std::vector<DurNs> a(30, 1'000'000), b(30, 1'005'000);
  const StepVerdict v = ComputeStepVerdict(a, b);
  EXPECT_LT(v.p_value, 0.05);
  EXPECT_EQ(v.result, VerdictResult::kNoChange);
}

TEST(StepVerdictTest, TooFewStepsNeverDecide) {
  const std::vector<DurNs> a = {1, 2}, b = {100, 200, 300};
  const StepVerdict v = ComputeStepVerdict(a, b);
  EXPECT_EQ(v.result, VerdictResult::kNoChange);
  EXPECT_EQ(v.confidence, 0);
  EXPECT_NE(VerdictLine(v).find("too few"), std::string::npos);
}

TEST(StepVerdictTest, TiesUseTheCorrectedVarianceAndAllEqualIsNoChange) {
  const std::vector<DurNs> same(8, 500);
  EXPECT_EQ(ComputeStepVerdict(same, same).result, VerdictResult::kNoChange);
  // Two values only, heavily tied, B mostly the larger one.
  const std::vector<DurNs> a = {10, 10, 10, 10, 10, 10, 20, 20};
  const std::vector<DurNs> b = {20, 20, 20, 20, 20, 20, 10, 20};
  const StepVerdict v = ComputeStepVerdict(a, b);
  EXPECT_GT(v.z, 0);
  EXPECT_GT(v.p_value, 0);
  EXPECT_LT(v.p_value, 0.05);
  EXPECT_EQ(v.result, VerdictResult::kSlower);
}

}  // namespace
}  // namespace stepline::analysis
