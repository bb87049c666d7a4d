// The critical-path list's cells and the step chart's phase bands, on the
// planted demo traces (demo_planted.h) whose answers are known.
#include <gtest/gtest.h>

#include "demo/demo_planted.h"
#include "model/analysis/report.h"
#include "ui/critical_path_list.h"
#include "ui/step_phase.h"

namespace stepline::ui {
namespace {

TEST(CriticalPathListTest, RowCellsOfTheLaunchBoundStep) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  const analysis::Report r = analysis::ComputeReport(trace);
  ASSERT_EQ(r.steps.size(), 4u);
  const std::vector<std::string> cells = CriticalPathRowCells(r.steps[2]);
  ASSERT_EQ(cells.size(), 3u + analysis::kPathKindCount);
  EXPECT_EQ(cells[0], "ProfilerStep#3");
  EXPECT_EQ(cells[1], "1.000 ms");
  EXPECT_EQ(cells[2 + size_t(analysis::PathKind::kHost)], "1.0%");
  EXPECT_EQ(cells[2 + size_t(analysis::PathKind::kLaunch)], "98.0%");
  EXPECT_EQ(cells[2 + size_t(analysis::PathKind::kCopy)], "");  // none on the path
  EXPECT_EQ(cells.back(), "cudaLaunchKernel");
}

TEST(CriticalPathListTest, BucketPhaseIsTheStepsOrMixed) {
  const Trace trace = demo::PlantedServingTrace(demo::PlantedEngine::kVllm);
  const analysis::Report r = analysis::ComputeReport(trace);
  ASSERT_EQ(r.steps.size(), 7u);
  EXPECT_EQ(BucketPhase(r.steps, 0, 1), StepPhase::kPrefill);
  EXPECT_EQ(BucketPhase(r.steps, 1, 6), StepPhase::kDecode);
  EXPECT_EQ(BucketPhase(r.steps, 0, 2), StepPhase::kMixed);  // prefill and decode in one bar
  EXPECT_EQ(BucketPhase(r.steps, 6, 7), StepPhase::kMixed);
  EXPECT_EQ(BucketPhase(r.steps, 3, 3), StepPhase::kNone);
  EXPECT_NE(PhaseColor(StepPhase::kPrefill), PhaseColor(StepPhase::kDecode));
}

}  // namespace
}  // namespace stepline::ui
