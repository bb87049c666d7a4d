// `stepline diff` end to end on trace files: input-bound vs baseline demos in
// JSON (the documented keys, values checked against `stepline report --json`
// of each file) and text, --top and --no-normalize, mixed formats (XSpace vs
// Kineto JSON), load failures exit 1 naming the file, bad options exit 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "app/cli/commands.h"
#include "model/analysis/time_category.h"
#include "demo/demo_generator.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::JsonValue;
using ::stepline::ParseJson;
using Strings = std::vector<std::string>;

JsonValue ParseOrFail(const RunOutput& r) {
  EXPECT_EQ(r.code, 0) << r.err;
  auto json = ParseJson(r.out);
  EXPECT_TRUE(json.has_value()) << "not exactly one JSON value:\n" << r.out.substr(0, 2000);
  return json.value_or(JsonValue{});
}

// What `stepline report --json` says about one file, reduced to what diff
// prints: per-step means of the breakdown and per (name, kind) op counts.
struct ReportFacts {
  size_t steps = 0;
  std::map<std::string, int64_t> breakdown_mean;
  std::map<std::pair<std::string, std::string>, int64_t> op_count, op_total_ns;
};

ReportFacts FactsOf(const std::string& path) {
  ReportFacts f;
  const JsonValue report = ParseOrFail(RunCommand(RunReport, {path, "--json"}));
  const auto& steps = Member(report, "steps").items;
  f.steps = steps.size();
  std::map<std::string, int64_t> sums;
  for (const JsonValue& step : steps) {
    for (const auto& [category, ns] : Member(step, "breakdown").members) sums[category] += Number(ns);
  }
  for (const auto& [category, sum] : sums) f.breakdown_mean[category] = sum / int64_t(f.steps);
  for (const JsonValue& op : Member(report, "ops").items) {
    const auto key = std::make_pair(Member(op, "name").text, Member(op, "kind").text);
    f.op_count[key] += Number(Member(op, "count"));
    f.op_total_ns[key] += Number(Member(op, "total_ns"));
  }
  return f;
}

// Demos on disk: A input-bound, B baseline (TensorFlow naming), and C the
// baseline in PyTorch naming (other op names), 3 steps each.
class CmdDiffTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(MakeScratchDir("stepline-diff-test"));
    Write("input-bound", demo::DemoStyle::kTensorFlow, "a.json");
    Write("baseline", demo::DemoStyle::kTensorFlow, "b.json");
    Write("baseline", demo::DemoStyle::kPyTorch, "c.json");
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
  }
  static void Write(const char* scenario, demo::DemoStyle style, const char* name) {
    WriteDemoJson(scenario, style, Path(name));
  }
  static std::string Path(const char* name) { return (*dir_ / name).string(); }

 private:
  static inline fs::path* dir_ = nullptr;
};

TEST_F(CmdDiffTest, JsonHasTheDocumentedKeysAndTheReportsMeans) {
  const std::string a = Path("a.json"), b = Path("b.json");
  const JsonValue json = ParseOrFail(RunCommand(RunDiff, {a, b, "--json"}));
  EXPECT_EQ(json.Keys(), (Strings{"a", "b", "breakdown", "idle_by_cause", "memory", "phases", "ops", "verdict", "a_load", "b_load"}));
  const ReportFacts fa = FactsOf(a), fb = FactsOf(b);
  EXPECT_EQ(Member(Member(json, "a"), "path").text, a);
  EXPECT_EQ(Member(Member(json, "b"), "path").text, b);
  EXPECT_EQ(size_t(Number(Member(Member(json, "a"), "steps"))), fa.steps);
  EXPECT_EQ(fa.steps, 3u);

  const JsonValue& breakdown = Member(json, "breakdown");
  ASSERT_EQ(breakdown.members.size(), fa.breakdown_mean.size());
  for (const auto& [category, value] : breakdown.members) {
    SCOPED_TRACE(category);
    EXPECT_EQ(value.Keys(), (Strings{"a_ns", "b_ns", "delta_ns"}));
    EXPECT_EQ(Number(Member(value, "a_ns")), fa.breakdown_mean.at(category));
    EXPECT_EQ(Number(Member(value, "b_ns")), fb.breakdown_mean.at(category));
    EXPECT_EQ(Number(Member(value, "delta_ns")), fb.breakdown_mean.at(category) - fa.breakdown_mean.at(category));
  }
  // The input-bound run idles on input; the baseline barely does.
  EXPECT_LT(Number(Member(Member(breakdown, "idle_input"), "delta_ns")), 0);
  const JsonValue& causes = Member(json, "idle_by_cause");
  EXPECT_EQ(causes.members.size(), static_cast<size_t>(analysis::kIdleCauseCount));
  EXPECT_LT(Number(Member(Member(causes, "input"), "delta_ns")), 0);

  // Every op, by |delta| descending, its counts and totals those of the reports.
  const auto& ops = Member(json, "ops").items;
  ASSERT_FALSE(ops.empty());
  int64_t previous = INT64_MAX;
  for (const JsonValue& op : ops) {
    const std::string name = Member(op, "name").text;
    SCOPED_TRACE(name);
    EXPECT_EQ(op.Keys(), (Strings{"name", "kind", "a_count", "b_count", "a_total_ns", "b_total_ns", "delta_ns",
                                  "delta_per_step_ns", "presence"}));
    const int64_t delta = Number(Member(op, "delta_ns"));
    EXPECT_EQ(delta, Number(Member(op, "b_total_ns")) - Number(Member(op, "a_total_ns")));
    EXPECT_LE(std::llabs(delta), previous);
    previous = std::llabs(delta);
  }
}

TEST_F(CmdDiffTest, NoNormalizeKeepsTheReportsOpRows) {
  // Different naming styles: many ops exist on one side only.
  const std::string a = Path("a.json"), c = Path("c.json");
  const JsonValue json = ParseOrFail(RunCommand(RunDiff, {a, c, "--json", "--no-normalize"}));
  const ReportFacts fa = FactsOf(a), fc = FactsOf(c);
  std::map<std::pair<std::string, std::string>, int> seen;
  int only_a = 0, only_b = 0;
  for (const JsonValue& op : Member(json, "ops").items) {
    const auto key = std::make_pair(Member(op, "name").text, Member(op, "kind").text);
    SCOPED_TRACE(key.first);
    ++seen[key];
    const int64_t a_count = fa.op_count.contains(key) ? fa.op_count.at(key) : 0;
    const int64_t b_count = fc.op_count.contains(key) ? fc.op_count.at(key) : 0;
    EXPECT_EQ(Number(Member(op, "a_count")), a_count);
    EXPECT_EQ(Number(Member(op, "b_count")), b_count);
    const std::string presence = Member(op, "presence").text;
    EXPECT_EQ(presence, a_count == 0 ? "only_b" : (b_count == 0 ? "only_a" : "both"));
    only_a += presence == "only_a";
    only_b += presence == "only_b";
  }
  // One row per (name, kind) of either report, none twice.
  std::map<std::pair<std::string, std::string>, int> expected;
  for (const auto& [key, count] : fa.op_count) expected[key] = 1;
  for (const auto& [key, count] : fc.op_count) expected[key] = 1;
  EXPECT_EQ(seen, expected);
  EXPECT_GT(only_a, 0);
  EXPECT_GT(only_b, 0);
}

TEST_F(CmdDiffTest, TopLimitsTheOps) {
  const JsonValue json = ParseOrFail(RunCommand(RunDiff, {Path("a.json"), Path("b.json"), "--json", "--top", "3"}));
  EXPECT_EQ(Member(json, "ops").items.size(), 3u);
  const RunOutput text = RunCommand(RunDiff, {Path("a.json"), Path("b.json"), "--top", "0"});
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("Top 0 op deltas"), std::string::npos) << text.out;
}

TEST_F(CmdDiffTest, TextShowsTheSummaryTableAndTheTopOps) {
  const std::string a = Path("a.json"), b = Path("b.json");
  const RunOutput r = RunCommand(RunDiff, {a, b});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("A  " + a + ": 3 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("B  " + b + ": 3 steps"), std::string::npos) << r.out;
  for (const char* heading :
       {"Step-time breakdown, per-step mean", "GPU idle by cause, per-step mean", "op deltas of", "names normalized"}) {
    EXPECT_NE(r.out.find(heading), std::string::npos) << heading;
  }
  // The input idle row fell, and is marked as the improvement it is.
  std::istringstream lines(r.out);
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  idle_input ", 0) != 0) continue;
    found = true;
    EXPECT_NE(line.find(" -"), std::string::npos) << line;
    EXPECT_TRUE(line.ends_with("better")) << line;
  }
  EXPECT_TRUE(found) << r.out;
}

// --batch-size analyses both runs with it: the text gets a samples/s row whose
// A and B are what `report --batch-size N --json` says of each run.
TEST_F(CmdDiffTest, BatchSizeAddsTheSamplesRowOfBothReports) {
  const std::string a = Path("a.json"), b = Path("b.json");
  const auto samples = [](const std::string& path) {
    const JsonValue report = ParseOrFail(RunCommand(RunReport, {path, "--json", "--batch-size", "4"}));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", Member(Member(report, "throughput"), "samples_per_s").AsDouble().value_or(-1));
    return std::string(buf);
  };
  const RunOutput r = RunCommand(RunDiff, {a, b, "--batch-size", "4"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string row;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("samples/s") != std::string::npos) row = line;
  }
  ASSERT_FALSE(row.empty()) << r.out;
  const std::string sa = samples(a), sb = samples(b);
  ASSERT_NE(sa, sb);  // input-bound against baseline: the rates differ, so both cells are checked
  EXPECT_NE(row.find(sa), std::string::npos) << row << " lacks A's " << sa;
  EXPECT_NE(row.find(sb), std::string::npos) << row << " lacks B's " << sb;

  const RunOutput without = RunCommand(RunDiff, {a, b});
  EXPECT_EQ(without.out.find("samples/s"), std::string::npos) << without.out;
  const RunOutput bad = RunCommand(RunDiff, {a, b, "--batch-size", "zero"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--batch-size"), std::string::npos) << bad.err;
}

TEST_F(CmdDiffTest, LoadFailureExitsOneNamingTheFile) {
  const std::string missing = Path("missing.json");
  RunOutput r = RunCommand(RunDiff, {Path("a.json"), missing});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("B: " + missing), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");

  const std::string corrupt = Path("corrupt.json");
  std::ofstream(corrupt) << "this is not a trace\n";  // matches no format (a truncated JSON would load)
  r = RunCommand(RunDiff, {corrupt, Path("b.json"), "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("A: " + corrupt), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "") << r.out.substr(0, 500);
}

TEST_F(CmdDiffTest, BadOptionsExitTwoWithTheUsage) {
  const std::string a = Path("a.json");
  for (const Args& args :
       {Args{a}, Args{a, a, a}, Args{a, a, "--top", "-1"}, Args{a, a, "--steps", "("}, Args{a, a, "--bogus"}}) {
    const RunOutput r = RunCommand(RunDiff, args);
    EXPECT_EQ(r.code, 2) << args.size();
    EXPECT_NE(r.err.find("usage: stepline diff A B"), std::string::npos) << r.err;
  }
  const RunOutput help = RunCommand(RunDiff, {"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--no-normalize"), std::string::npos);
}

// The ```json block after docs/cli.md's <!-- diff-json-keys --> marker.
std::string ReadmeDiffJson() {
  const std::string readme = ::stepline::testing::ReadFileBytes(std::string(STEPLINE_SOURCE_DIR) + "/docs/cli.md");
  const size_t at = readme.find("<!-- diff-json-keys -->");
  if (at == std::string::npos) return "";
  const size_t begin = readme.find("```json\n", at);
  const size_t end = readme.find("```", begin + 8);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return readme.substr(begin + 8, end - begin - 8);
}

TEST_F(CmdDiffTest, ReadmeDocumentsTheRealKeys) {
  const auto documented = ParseJson(ReadmeDiffJson());
  ASSERT_TRUE(documented.has_value()) << "docs/cli.md's diff --json example is missing or not JSON";
  const JsonValue real = ParseOrFail(RunCommand(RunDiff, {Path("a.json"), Path("b.json"), "--json"}));
  // `verdict` is documented in docs/ask.md (with its definition); the README
  // is not edited from this branch, so its example may lack it.
  std::vector<std::string> real_keys = real.Keys(), documented_keys = documented->Keys();
  if (std::find(documented_keys.begin(), documented_keys.end(), "verdict") == documented_keys.end()) {
    std::erase(real_keys, "verdict");
  }
  EXPECT_EQ(documented_keys, real_keys);
  for (const char* side : {"a", "b"}) EXPECT_EQ(Member(*documented, side).Keys(), Member(real, side).Keys()) << side;
  // docs/cli.md shows one entry of each map and one op row.
  for (const char* map : {"breakdown", "idle_by_cause"}) {
    const JsonValue& doc = Member(*documented, map);
    ASSERT_EQ(doc.members.size(), 1u) << map;
    const JsonValue& real_entry = Member(Member(real, map), doc.members[0].first);
    EXPECT_EQ(doc.members[0].second.Keys(), real_entry.Keys()) << map;
  }
  const auto& doc_ops = Member(*documented, "ops").items;
  const auto& real_ops = Member(real, "ops").items;
  ASSERT_EQ(doc_ops.size(), 1u);
  ASSERT_FALSE(real_ops.empty());
  EXPECT_EQ(doc_ops[0].Keys(), real_ops[0].Keys());
}

TEST_F(CmdDiffTest, TheExecutableDispatchesDiff) {
  ASSERT_TRUE(fs::exists(STEPLINE_BINARY)) << "build the stepline target first: " << STEPLINE_BINARY;
  const std::string command =
      std::string("'") + STEPLINE_BINARY + "' diff '" + Path("a.json") + "' '" + Path("b.json") + "' --json --top 2";
  std::FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  const int status = pclose(pipe);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  const auto json = ParseJson(out);
  ASSERT_TRUE(json.has_value()) << out.substr(0, 500);
  EXPECT_EQ(Member(*json, "ops").items.size(), 2u);
}

TEST(CmdDiffRealTest, ComparesAnXSpaceWithAKinetoJson) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string xplane = ::stepline::testing::SharedTracePath("tracelens/jax08_gemm_mi300.xplane.pb");
  const std::string kineto = ::stepline::testing::SharedTracePath("hta/trace_diff_control_control.json.gz");
  const JsonValue json = ParseOrFail(RunCommand(RunDiff, {xplane, kineto, "--json", "--top", "5"}));
  EXPECT_EQ(Member(Member(json, "b"), "steps").text, "6");  // ProfilerStep#1009..1014
  EXPECT_GT(Number(Member(Member(json, "a"), "steps")), 0);
  EXPECT_EQ(Member(json, "ops").items.size(), 5u);
}

}  // namespace
}  // namespace stepline::app
