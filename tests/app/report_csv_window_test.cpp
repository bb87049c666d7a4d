// One table writer: `stepline report --csv` and the window's
// Save as CSV (ui/analysis_tables.h) write identical files for the same trace:
// the same columns in the same order, and the same rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "tests/app/command_test_helpers.h"
#include "ui/analysis_data.h"
#include "ui/analysis_tables.h"
#include "ui/memory/memory_panel.h"

namespace stepline::app {
namespace {

std::vector<uint32_t> AllRows(size_t n) {
  std::vector<uint32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0u);
  return rows;
}

class ReportCsvWindowTest : public ::testing::TestWithParam<demo::DemoStyle> {};

TEST_P(ReportCsvWindowTest, ReportCsvMatchesWindowTables) {
  const auto dir = MakeScratchDir("report-csv-window");
  const std::string trace_path = (dir / "trace.json").string();
  WriteDemoJson("input-bound", GetParam(), trace_path);
  const RunOutput run = RunCommand(RunReport, Args{trace_path, "--csv", (dir / "csv").string()});
  ASSERT_EQ(run.code, 0) << run.err;

  auto loaded = loaders::LoadFile(trace_path);
  ASSERT_TRUE(loaded.ok());
  const Trace& trace = loaded.value();
  const ui::AnalysisData a = ui::ComputeAnalysisData(trace);
  // The Idle gaps panel's default filter (every cause, >= the report's
  // --min-gap-us default) in start order: the rows `report` lists.
  std::vector<uint32_t> gaps;
  for (uint32_t i = 0; i < a.gaps.size(); ++i) {
    if (a.gaps[i].dur_ns() >= a.min_gap_ns) gaps.push_back(i);
  }
  ASSERT_FALSE(gaps.empty());
  const std::vector<std::pair<std::string, std::string>> files = {
      {"steps.csv", ui::ToCsv(ui::StepsTable(a.report))},
      {"ops.csv", ui::ToCsv(ui::OpsTable(a.report, AllRows(a.report.ops.size())))},
      {"kernels.csv", ui::ToCsv(ui::KernelsTable(a.report, AllRows(a.report.kernels.size())))},
      {"gaps.csv", ui::ToCsv(ui::GapsTable(trace, a, gaps))},
      {"memory.csv", ui::ToCsv(ui::AllocationsTable(a.report, AllRows(a.report.allocations.size())))}};
  for (const auto& [name, window] : files) {
    const std::string cli = ReadFile((dir / "csv" / name).string());
    EXPECT_GT(std::count(cli.begin(), cli.end(), '\n'), 1) << name;
    EXPECT_EQ(cli, window) << name << ": report --csv and the window's Save as CSV differ";
  }
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(BothStyles, ReportCsvWindowTest,
                         ::testing::Values(demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch));

}  // namespace
}  // namespace stepline::app
