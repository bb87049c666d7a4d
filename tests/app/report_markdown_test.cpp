// `stepline report --format md`: the sections in order, the headline and
// breakdown figures those of `report --json`, the input-bound demo's
// findings numbered F1... with rule, threshold and evidence whose slice ids
// are kernels starting where the gap ends, and the command that opens each.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "demo/demo_generator.h"
#include "loaders/load.h"
#include "model/analysis/findings.h"
#include "model/analysis/report.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

class ReportMarkdownTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(MakeScratchDir("stepline-md-test"));
    WriteDemoJson("input-bound", demo::DemoStyle::kTensorFlow, Path());
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string Path() { return (*dir_ / "input.json").string(); }
  static inline std::filesystem::path* dir_ = nullptr;
};

std::vector<std::string> Headings(const std::string& md, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(md);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0 && line.size() > prefix.size() && line[prefix.size()] != '#') out.push_back(line);
  }
  return out;
}

TEST_F(ReportMarkdownTest, SectionsFindingsAndEvidence) {
  const RunOutput r = RunCommand(RunReport, {Path(), "--format", "md"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string& md = r.out;
  EXPECT_EQ(md.rfind("# Stepline report: `", 0), 0u);
  EXPECT_EQ(Headings(md, "## "),
            (std::vector<std::string>{"## Headline", "## Step-time breakdown", "## Findings", "## Recommendations",
                                      "## Top ops", "## Top kernels", "## Longest GPU idle gaps", "## Memory"}));
  const std::vector<std::string> findings = Headings(md, "### ");
  ASSERT_GE(findings.size(), 1u);
  for (size_t i = 0; i < findings.size(); ++i) {
    EXPECT_EQ(findings[i].rfind("### F" + std::to_string(i + 1) + ": ", 0), 0u) << findings[i];
    EXPECT_NE(md.find("`stepline view " + Path() + " --finding F" + std::to_string(i + 1) + "`"), std::string::npos);
  }
  EXPECT_NE(findings[0].find("idle_input"), std::string::npos) << findings[0];
  EXPECT_NE(md.find("- rule: `idle_input`, threshold >= 5.0% of step time; measured "), std::string::npos);
  EXPECT_NE(md.find("| evidence | slice id | start (ms) | duration |"), std::string::npos);
  // Every table row has as many cells as its header.
  std::istringstream in(md);
  size_t columns = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '|') {
      columns = 0;
      continue;
    }
    size_t cells = 0;
    for (size_t k = 1; k < line.size(); ++k) cells += line[k] == '|' && line[k - 1] != '\\';
    if (columns == 0) columns = cells;
    EXPECT_EQ(cells, columns) << line;
  }
}

TEST_F(ReportMarkdownTest, EvidenceSlicesAreTheKernelsAfterTheGaps) {
  auto loaded = loaders::LoadFile(Path());
  ASSERT_TRUE(loaded.ok());
  const Trace& trace = loaded.value();
  const analysis::Report report = analysis::ComputeReport(trace);
  const auto findings = analysis::ComputeFindings(trace, report);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].id, "F1");
  EXPECT_EQ(findings[0].rule, "idle_input");
  ASSERT_FALSE(findings[0].evidence.empty());
  DurNs previous = INT64_MAX;
  for (const analysis::FindingEvidence& e : findings[0].evidence) {
    ASSERT_FALSE(e.slice.is_none()) << e.what;
    EXPECT_EQ(trace.slices().start_ns()[e.slice.index()], e.start_ns + e.dur_ns);
    EXPECT_TRUE(IsKernelLike(trace.slices().gpu_kind()[e.slice.index()]));
    EXPECT_LE(e.dur_ns, previous) << "longest first";
    previous = e.dur_ns;
  }
  // The same trace gives the same ids.
  EXPECT_EQ(analysis::ComputeFindings(trace, report).size(), findings.size());
  EXPECT_EQ(RunCommand(RunReport, {Path(), "--format", "pdf"}).code, 2);
}

}  // namespace
}  // namespace stepline::app
