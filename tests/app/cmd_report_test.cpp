// `stepline report` end to end on trace files: the input-bound demo gets its
// diagnosis in JSON and text, --csv writes four tables matching the JSON
// arrays and never clobbers without --force, options reach the analysis, load
// failures exit 1 naming the file, bad options exit 2 with the usage.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include "app/cli/commands.h"
#include "demo/demo_generator.h"
#include "model/analysis/headline.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;
using ::stepline::JsonValue;
using ::stepline::ParseJson;
using Strings = std::vector<std::string>;

RunOutput Report(const Args& args) { return RunCommand(RunReport, args); }

void WriteFile(const fs::path& path, std::string_view bytes) { std::ofstream(path, std::ios::binary) << bytes; }

Strings Lines(const std::string& text) {
  Strings lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The cause with the most idle time in an idle_by_cause object.
std::string LargestCause(const JsonValue& causes) {
  const auto it = std::max_element(causes.members.begin(), causes.members.end(),
                                   [](const auto& a, const auto& b) { return Number(a.second) < Number(b.second); });
  return it == causes.members.end() ? "" : it->first;
}

// One input-bound demo (TensorFlow naming, 3 steps) on disk for every test,
// in a scratch directory of this process.
class CmdReportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(MakeScratchDir("stepline-report-test"));
    trace_ = new std::string((*dir_ / "input_bound.json").string());
    WriteDemoJson("input-bound", demo::DemoStyle::kTensorFlow, *trace_);
  }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete trace_;
  }
  static const fs::path& dir() { return *dir_; }
  static const std::string& trace() { return *trace_; }

  // The --json object of a successful run.
  static JsonValue JsonReport(Args args) {
    args.insert(args.begin(), trace());
    args.push_back("--json");
    const RunOutput r = Report(args);
    EXPECT_EQ(r.code, 0) << r.err;
    auto json = ParseJson(r.out);
    EXPECT_TRUE(json.has_value()) << "not exactly one JSON value:\n" << r.out.substr(0, 2000);
    return json.value_or(JsonValue{});
  }

 private:
  static inline fs::path* dir_ = nullptr;
  static inline std::string* trace_ = nullptr;
};

TEST_F(CmdReportTest, JsonDiagnosesTheInputBoundDemo) {
  const RunOutput r = Report({trace(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value());
  EXPECT_EQ(json->Keys(),
            (Strings{"primary_device", "devices", "step_source", "steps_overlap", "steps", "breakdown_total",
                     "idle_by_cause", "gpu_busy_percent", "step_stats", "outlier_steps", "step_engine", "phases",
                     "critical_path", "top_blamed_event", "gaps", "ops", "kernels", "graph_replays", "memory", "xla_modules", "xla_ops",
                     "efficiency", "communication", "launch_overhead", "throughput", "recommendations", "complete_steps",
                     "notes", "partial", "data_loss", "diagnostics"}));
  EXPECT_EQ(Member(*json, "primary_device").text, "GPU 0");
  EXPECT_EQ(LargestCause(Member(*json, "idle_by_cause")), "input");
  const auto& recommendations = Member(*json, "recommendations").items;
  ASSERT_FALSE(recommendations.empty());
  EXPECT_EQ(recommendations[0].text.rfind("Highly input-bound", 0), 0u) << recommendations[0].text;

  const auto& steps = Member(*json, "steps").items;
  ASSERT_EQ(steps.size(), 3u);
  for (const JsonValue& step : steps) {
    const auto& breakdown = Member(step, "breakdown").members;
    const int64_t sum = std::accumulate(breakdown.begin(), breakdown.end(), int64_t{0},
                                        [](int64_t acc, const auto& m) { return acc + Number(m.second); });
    EXPECT_EQ(sum, Number(Member(step, "dur_ns"))) << Member(step, "name").text;
    EXPECT_GT(Number(Member(Member(step, "breakdown"), "idle_input")), Number(Member(step, "dur_ns")) / 2);
  }
  for (const JsonValue& gap : Member(*json, "gaps").items) EXPECT_GE(Number(Member(gap, "dur_ns")), 10'000);
}

TEST_F(CmdReportTest, TextNamesThePrimaryDeviceAndTheRecommendations) {
  const RunOutput r = Report({trace()});
  ASSERT_EQ(r.code, 0) << r.err;
  for (const std::string& expected :
       {"file             " + trace(), std::string("primary device   GPU 0"), std::string("3 steps from"),
        std::string("Step-time breakdown"), std::string("idle_input"), std::string("Top 10 ops by self time"),
        std::string("cause input"), std::string("Recommendations\n  - Highly input-bound")}) {
    EXPECT_NE(r.out.find(expected), std::string::npos) << "missing \"" << expected << "\" in:\n" << r.out;
  }
}

TEST_F(CmdReportTest, CsvTablesMatchTheJsonArrays) {
  const fs::path out_dir = dir() / "csv" / "nested";  // neither exists yet
  const RunOutput r = Report({trace(), "--json", "--csv", out_dir.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << "with --json, stdout holds only the JSON object";
  const std::pair<const char*, const char*> tables[] = {
      {"steps.csv", "steps"}, {"ops.csv", "ops"}, {"kernels.csv", "kernels"}, {"gaps.csv", "gaps"}};
  const std::pair<const char*, const char*> header_starts[] = {
      {"steps.csv", "name,start_ns,dur_ns,compute_ns,"},
      {"ops.csv", "name,kind,count,total_ns,self_ns,avg_ns,min_ns,max_ns,"},
      {"kernels.csv", "name,grid_x,grid_y,grid_z,block_x,"},
      {"gaps.csv", "device,start_ns,dur_ns,step,cause,next_kernel,launch_delay_ns,"}};
  for (size_t i = 0; i < 4; ++i) {
    const auto [file, key] = tables[i];
    const Strings lines = Lines(ReadFile(out_dir / file));
    ASSERT_FALSE(lines.empty()) << file;
    EXPECT_EQ(lines[0].rfind(header_starts[i].second, 0), 0u) << file << ": " << lines[0];
    EXPECT_EQ(lines.size() - 1, Member(*json, key).items.size()) << file;
    EXPECT_FALSE(Member(*json, key).items.empty()) << key;
  }
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(out_dir)) ++files;
  // memory.csv: one row per allocation of the demo's GPU 0 pool.
  const Strings memory_lines = Lines(ReadFile(out_dir / "memory.csv"));
  ASSERT_FALSE(memory_lines.empty());
  EXPECT_EQ(memory_lines[0], "device,op,addr,bytes,alloc_ns,free_ns,lifetime_ns");
  const JsonValue& gpu_memory = Member(Member(*json, "memory"), "GPU 0");
  EXPECT_EQ(memory_lines.size() - 1,
            Member(gpu_memory, "allocations").AsUint().value_or(0) + Member(gpu_memory, "unmatched_frees").AsUint().value_or(0));
  EXPECT_EQ(files, 6u) << "no temporary files left behind";
  // headline.csv: the overview's figures, one row each.
  const Strings headline_lines = Lines(ReadFile(out_dir / "headline.csv"));
  ASSERT_EQ(headline_lines.size(), std::size(analysis::kHeadlineTableFigures) + 1);
  EXPECT_EQ(headline_lines[0], "figure,label,value");
  EXPECT_EQ(headline_lines[1].rfind("steps,steps,", 0), 0u) << headline_lines[1];

  // Without --json the run says what it wrote, and prints no report.
  const fs::path other = dir() / "csv_text";
  const RunOutput text = Report({trace(), "--csv", other.string()});
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("wrote " + (other / "gaps.csv").string()), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("Recommendations"), std::string::npos);
}

TEST_F(CmdReportTest, CsvNeverReplacesFilesWithoutForce) {
  const fs::path out_dir = dir() / "csv_existing";
  fs::create_directories(out_dir);
  WriteFile(out_dir / "ops.csv", "mine\n");
  const RunOutput refused = Report({trace(), "--csv", out_dir.string()});
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find((out_dir / "ops.csv").string() + " already exists (use --force"), std::string::npos)
      << refused.err;
  EXPECT_EQ(ReadFile(out_dir / "ops.csv"), "mine\n");
  EXPECT_FALSE(fs::exists(out_dir / "steps.csv")) << "nothing is written when any table exists";

  const RunOutput forced = Report({trace(), "--csv", out_dir.string(), "--force"});
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(ReadFile(out_dir / "ops.csv").rfind("name,kind,", 0), 0u);
  EXPECT_TRUE(fs::exists(out_dir / "steps.csv"));

  WriteFile(dir() / "a_file", "x");
  const RunOutput not_dir = Report({trace(), "--csv", (dir() / "a_file").string()});
  EXPECT_EQ(not_dir.code, 1);
  EXPECT_NE(not_dir.err.find("a_file"), std::string::npos) << not_dir.err;
}

// The demo's gaps: thousands of 1.5-3.5 us ones between back-to-back kernels
// and four ~2.3 s input waits (2.300, 2.307, 2.312 and 2.321 s).
TEST_F(CmdReportTest, MinGapUsSetsWhichGapsAreListedNotWhatIsCounted) {
  const std::pair<std::string, int64_t> thresholds[] = {
      {"0", 0}, {"3", 3'000}, {"", 10'000}, {"2310000", 2'310'000'000}};  // "": the default
  std::vector<size_t> counts;
  int64_t input_idle = -1;
  for (const auto& [us, min_ns] : thresholds) {
    const JsonValue json = JsonReport(us.empty() ? Args{} : Args{"--min-gap-us", us});
    const auto& gaps = Member(json, "gaps").items;
    counts.push_back(gaps.size());
    for (const JsonValue& gap : gaps) ASSERT_GE(Number(Member(gap, "dur_ns")), min_ns) << "--min-gap-us " << us;
    const int64_t input = Number(Member(Member(json, "idle_by_cause"), "input"));
    if (input_idle >= 0) {
      EXPECT_EQ(input, input_idle) << "all idle time is counted whatever is listed";
    }
    input_idle = input;
  }
  ASSERT_EQ(counts.size(), 4u);
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], counts[2]);
  EXPECT_EQ(counts[2], 4u);  // the input waits only
  EXPECT_EQ(counts[3], 2u);
}

// The demo's main thread waits in IteratorGetNext > tf_data_iterator_get_next;
// a user table calling both "sync" turns the diagnosis around.
TEST_F(CmdReportTest, PatternsFileOverridesTheBuiltInTable) {
  const fs::path patterns = dir() / "patterns.tsv";
  WriteFile(patterns, "# our iterator blocks on a queue\nsync\tIteratorGetNext\nsync\ttf_data_iterator_get_next*\n");
  const JsonValue json = JsonReport({"--patterns", patterns.string()});
  EXPECT_EQ(LargestCause(Member(json, "idle_by_cause")), "sync");
  EXPECT_EQ(Number(Member(Member(json, "idle_by_cause"), "input")), 0);
  ASSERT_FALSE(Member(json, "recommendations").items.empty());
  EXPECT_EQ(Member(json, "recommendations").items.at(0).text.find("input-bound"), std::string::npos);

  WriteFile(patterns, "inptu\tIteratorGetNext\n");
  const RunOutput bad = Report({trace(), "--patterns", patterns.string()});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("line 1"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("usage: stepline report"), std::string::npos);
}

// A trace without step markers: --steps picks the steps; without it the
// GPU-active span is the one step. Kineto categories mark the GPU rows.
TEST_F(CmdReportTest, StepsRegexChoosesTheStepsWhenTheTraceHasNone) {
  const fs::path path = dir() / "no_markers.json";
  WriteFile(path, R"({"traceEvents":[
    {"ph":"X","cat":"user_annotation","name":"iter 1","pid":1,"tid":1,"ts":0,"dur":100},
    {"ph":"X","cat":"user_annotation","name":"iter 2","pid":1,"tid":1,"ts":100,"dur":100},
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":10,"dur":50,"args":{"device":0,"stream":7}},
    {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":120,"dur":50,"args":{"device":0,"stream":7}}]})");
  const auto steps_of = [&](Args extra) {
    extra.insert(extra.begin(), {path.string(), "--json"});
    const RunOutput r = Report(extra);
    EXPECT_EQ(r.code, 0) << r.err;
    Strings names;
    if (auto json = ParseJson(r.out)) {
      for (const JsonValue& s : Member(*json, "steps").items) names.push_back(Member(s, "name").text);
    }
    return names;
  };
  EXPECT_EQ(steps_of({}), (Strings{"all"}));
  EXPECT_EQ(steps_of({"--steps", "^iter"}), (Strings{"iter 1", "iter 2"}));
  const RunOutput no_match = Report({path.string(), "--json", "--steps", "^epoch"});
  EXPECT_EQ(no_match.code, 0);
  EXPECT_NE(no_match.err.find("--steps matched no top-level host slice; steps from gpu_active_span"), std::string::npos)
      << no_match.err;

  // The demo has a Steps row, which comes first: the regex is set aside, and said so.
  const RunOutput ignored = Report({trace(), "--json", "--steps", "^iter"});
  EXPECT_EQ(ignored.code, 0);
  EXPECT_NE(ignored.err.find("--steps ignored"), std::string::npos) << ignored.err;
}

TEST_F(CmdReportTest, LoadFailureExitsOneNamingTheFile) {
  const std::string missing = (dir() / "no_such_trace.json").string();
  const RunOutput r = Report({missing, "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;

  WriteFile(dir() / "garbage.json", "this is not a trace");
  const RunOutput garbage = Report({(dir() / "garbage.json").string()});
  EXPECT_EQ(garbage.code, 1);
  EXPECT_NE(garbage.err.find("garbage.json"), std::string::npos) << garbage.err;
}

TEST_F(CmdReportTest, BadOptionsExitTwoWithTheUsage) {
  const std::vector<Args> bad = {
      {},
      {trace(), trace()},
      {trace(), "--bogus"},
      {trace(), "--min-gap-us", "-1"},
      {trace(), "--min-gap-us", "ten"},
      {trace(), "--steps", "(unclosed"},
      {trace(), "--steps", ""},
      {trace(), "--force"},
      {trace(), "--csv"},
      {trace(), "--patterns", (dir() / "no_such_patterns.tsv").string()},
  };
  for (const Args& args : bad) {
    const RunOutput r = Report(args);
    std::string joined;
    for (const std::string& a : args) joined += a + " ";
    EXPECT_EQ(r.code, 2) << joined;
    EXPECT_NE(r.err.find("usage: stepline report FILE"), std::string::npos) << joined << "\n" << r.err;
    EXPECT_EQ(r.out, "") << joined;
  }
  const RunOutput help = Report({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--min-gap-us N"), std::string::npos);
}

}  // namespace
}  // namespace stepline::app
