// `stepline diff` of demo scenario pairs against the goldens made before
// Compare took (Trace, TraceAnalysis) pairs (tests/data/diff_goldens/, made by
// make_goldens.sh from main at ad1e0ea): text and JSON output must be
// byte-identical, standard error included, with the scratch folder removed
// from the printed paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "demo/demo_scenarios.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

struct DiffCase {
  const char* golden;  // file name in tests/data/diff_goldens
  const char* a;       // scenario-style
  const char* b;
  std::vector<std::string> extra;  // arguments after A and B
};

// Keep in step with make_goldens.sh.
const std::vector<DiffCase>& Cases() {
  static const std::vector<DiffCase> cases = {
      {"input-bound-pytorch.txt", "baseline-pytorch", "input-bound-pytorch", {}},
      {"input-bound-pytorch.json", "baseline-pytorch", "input-bound-pytorch", {"--json"}},
      {"h2d-copy-pytorch.txt", "baseline-pytorch", "h2d-copy-pytorch", {}},
      {"small-batch-pytorch.json", "baseline-pytorch", "small-batch-pytorch", {"--json", "--top", "40"}},
      {"sync-tensorflow-raw-names.txt", "baseline-tensorflow", "sync-tensorflow", {"--no-normalize", "--top", "30"}},
      {"inefficient-op-tensorflow.json", "baseline-tensorflow", "inefficient-op-tensorflow", {"--json", "--top", "40"}},
      {"memory-leak-pytorch.txt", "baseline-pytorch", "memory-leak-pytorch", {}},
      {"preprocessing-tensorflow-steps.txt", "post-processing-tensorflow", "preprocessing-tensorflow", {"--steps", "^train"}},
  };
  return cases;
}

// Writes `name` (scenario-style) as `stepline demo SCENARIO --style STYLE` would.
std::string WriteDemo(const std::filesystem::path& dir, const std::string& name) {
  const std::string path = (dir / (name + ".json")).string();
  if (std::filesystem::exists(path)) return path;
  const size_t dash = name.rfind('-');
  const auto style = demo::ParseDemoStyle(name.substr(dash + 1));
  EXPECT_TRUE(style.has_value()) << name;
  demo::DemoOptions demo;
  demo.scenario = name.substr(0, dash);
  demo.style = style.value_or(demo::DemoStyle{});
  demo.compute_truth = false;
  auto generated = demo::GenerateDemoTrace(demo);
  EXPECT_TRUE(generated.ok()) << generated.error();
  if (generated.ok()) {
    EXPECT_TRUE(exports::WriteChromeJsonFile(*generated, path).ok());
  }
  return path;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

class DiffGoldenTest : public ::testing::TestWithParam<size_t> {};

TEST_P(DiffGoldenTest, OutputMatchesTheGolden) {
  const DiffCase& c = Cases()[GetParam()];
  const auto dir = MakeScratchDirRemovedAtExit("diff-golden-" + std::to_string(GetParam()));
  Args args{WriteDemo(dir, c.a), WriteDemo(dir, c.b)};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  const RunOutput run = RunCommand(RunDiff, args);
  ASSERT_EQ(run.code, 0) << run.err;
  const std::string now = ReplaceAll(run.err + run.out, dir.string() + "/", "");

  const std::string golden_path = std::string(STEPLINE_TEST_DATA_DIR) + "/diff_goldens/" + c.golden;
  std::ifstream in(golden_path, std::ios::binary);
  ASSERT_TRUE(in) << golden_path;
  std::ostringstream golden;
  golden << in.rdbuf();
  EXPECT_EQ(now, golden.str()) << c.golden;
}

INSTANTIATE_TEST_SUITE_P(DemoPairs, DiffGoldenTest, ::testing::Range<size_t>(0, Cases().size()),
                         [](const ::testing::TestParamInfo<size_t>& info) {
                           std::string n = Cases()[info.param].golden;
                           std::replace_if(n.begin(), n.end(), [](char ch) { return ch == '-' || ch == '.'; }, '_');
                           return n;
                         });

}  // namespace
}  // namespace stepline::app
