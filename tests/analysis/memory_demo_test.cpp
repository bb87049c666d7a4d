// The `memory-leak` demo against its planted truth, and the `baseline` demo's
// flat memory, in both naming styles.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "demo/demo_generator.h"
#include "model/analysis/compare.h"
#include "model/analysis/report.h"

namespace stepline::analysis {
namespace {

// The report's names are views into the trace's string pool, so the run
// keeps its trace alive (the sanitizer build found a use after free here).
struct DemoRun {
  demo::DemoTruth truth;
  std::shared_ptr<const Trace> trace;
  Report report;
};

DemoRun Generate(const std::string& scenario, demo::DemoStyle style) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.style = style;
  auto out = demo::GenerateDemo(options);
  EXPECT_TRUE(out.ok());
  auto trace = std::make_shared<const Trace>(std::move(out.value().trace));
  DemoRun run{out.value().truth, trace, ComputeReport(*trace)};
  return run;
}

bool Warns(const Report& r, const std::string& what) {
  for (const std::string& s : r.recommendations) {
    if (s.find(what) != std::string::npos) return true;
  }
  return false;
}

class MemoryDemoTest : public ::testing::TestWithParam<demo::DemoStyle> {};

TEST_P(MemoryDemoTest, MemoryLeakGrowsAtThePlantedSlope) {
  const DemoRun run = Generate("memory-leak", GetParam());
  ASSERT_EQ(run.report.memory.size(), 1u);
  const ReportMemory& gpu = run.report.memory[0];
  EXPECT_EQ(gpu.name, "GPU 0");
  EXPECT_FALSE(gpu.relative);
  const double planted = static_cast<double>(run.truth.memory_growth_per_step_bytes);
  ASSERT_GT(planted, 0);
  EXPECT_LE(std::fabs(gpu.growth_per_step_bytes - planted), 0.02 * planted)
      << gpu.growth_per_step_bytes << " vs " << planted;
  EXPECT_EQ(gpu.peak_allocated_bytes, run.truth.memory_peak_allocated_bytes);
  EXPECT_TRUE(Warns(run.report, "GPU 0 memory grows 128.0 MB per step"));
  // One leaked tensor per step is never freed (plus the activations of the
  // step the capture cuts off).
  EXPECT_GE(gpu.never_freed, run.report.steps.size());
}

TEST_P(MemoryDemoTest, BaselineRecordsFlatMemory) {
  const DemoRun run = Generate("baseline", GetParam());
  ASSERT_EQ(run.report.memory.size(), 1u);
  const ReportMemory& gpu = run.report.memory[0];
  EXPECT_GT(gpu.allocations, 1000u);
  EXPECT_EQ(run.truth.memory_growth_per_step_bytes, 0);
  EXPECT_EQ(gpu.growth_per_step_bytes, 0);
  EXPECT_EQ(gpu.peak_allocated_bytes, run.truth.memory_peak_allocated_bytes);
  EXPECT_FALSE(Warns(run.report, "memory grows"));
  EXPECT_FALSE(Warns(run.report, "will not fit"));
  ASSERT_FALSE(gpu.top_at_peak.empty());
  EXPECT_FALSE(gpu.top_at_peak[0].name.empty());  // the op that allocated it is known
}

TEST(MemoryCompareTest, DiffShowsThePeaksOfBothRuns) {
  const DemoRun a = Generate("baseline", demo::DemoStyle::kPyTorch);
  const DemoRun b = Generate("memory-leak", demo::DemoStyle::kPyTorch);
  const Comparison c = Compare(*a.trace, *b.trace);
  std::vector<const SummaryRow*> rows;
  for (const SummaryRow& row : c.summary) {
    if (row.group == SummaryGroup::kMemory) rows.push_back(&row);
  }
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]->label, "GPU 0 peak allocated");
  EXPECT_EQ(rows[0]->unit, SummaryUnit::kBytes);
  EXPECT_EQ(rows[0]->a, static_cast<double>(a.truth.memory_peak_allocated_bytes));
  EXPECT_EQ(rows[0]->b, static_cast<double>(b.truth.memory_peak_allocated_bytes));
  EXPECT_EQ(rows[0]->delta, rows[0]->b - rows[0]->a);
  EXPECT_EQ(ChangeOf(*rows[0]), Change::kRegression);
  EXPECT_EQ(rows[1]->label, "GPU 0 peak reserved");
  EXPECT_EQ(rows[1]->a, static_cast<double>(a.report.memory[0].peak_reserved_bytes));
}

INSTANTIATE_TEST_SUITE_P(Styles, MemoryDemoTest,
                         ::testing::Values(demo::DemoStyle::kPyTorch, demo::DemoStyle::kTensorFlow),
                         [](const auto& info) { return std::string(demo::DemoStyleName(info.param)); });

}  // namespace
}  // namespace stepline::analysis
