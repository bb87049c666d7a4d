// The verdict of `stepline diff` (step_verdict.h) end to end: a fixed demo
// run against itself is no_change, input-bound against baseline is slower
// (and exits 3 under --fail-if-slower), baseline against input-bound is
// faster; a saved baseline compares like its trace; the shared Nsight
// before/after pair gets a verdict with the documented keys.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "app/cli/commands.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;

class DiffVerdictTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(MakeScratchDir("stepline-verdict-test"));
    Write("baseline", "base.json");
    Write("input-bound", "input.json");
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static void Write(const char* scenario, const char* name) {
    demo::DemoOptions demo;
    demo.scenario = scenario;
    demo.steps = 12;
    demo.compute_truth = false;
    auto trace = demo::GenerateDemoTrace(demo);
    ASSERT_TRUE(trace.ok()) << trace.error();
    ASSERT_TRUE(exports::WriteChromeJsonFile(*trace, Path(name)).ok());
  }
  static std::string Path(const char* name) { return (*dir_ / name).string(); }
  static JsonValue Verdict(const Args& args) {
    Args with_json = args;
    with_json.push_back("--json");
    const RunOutput r = RunCommand(RunDiff, with_json);
    EXPECT_EQ(r.code, 0) << r.err;
    auto json = ::stepline::ParseJson(r.out);
    EXPECT_TRUE(json.has_value()) << r.out.substr(0, 500);
    const JsonValue* v = json ? json->Find("verdict") : nullptr;
    EXPECT_NE(v, nullptr);
    return v ? *v : JsonValue{};
  }

  static inline std::filesystem::path* dir_ = nullptr;
};

TEST_F(DiffVerdictTest, ARunAgainstItselfIsNoChange) {
  const JsonValue v = Verdict({Path("base.json"), Path("base.json")});
  EXPECT_EQ(v.Keys(), (std::vector<std::string>{"result", "change_percent", "confidence", "p_value", "a_steps",
                                                "b_steps", "test"}));
  EXPECT_EQ(Member(v, "result").text, "no_change");
  EXPECT_EQ(Member(v, "change_percent").text, "0.00");
  EXPECT_GE(Number(Member(v, "a_steps")), 10);
  EXPECT_EQ(RunCommand(RunDiff, {Path("base.json"), Path("base.json"), "--fail-if-slower", "0"}).code, 0);
}

TEST_F(DiffVerdictTest, InputBoundAgainstBaselineIsSlowerAndFailsTheGate) {
  const JsonValue v = Verdict({Path("base.json"), Path("input.json")});
  EXPECT_EQ(Member(v, "result").text, "slower");
  EXPECT_GT(*Member(v, "change_percent").AsDouble(), 5.0);
  EXPECT_GT(*Member(v, "confidence").AsDouble(), 0.95);
  const RunOutput gate = RunCommand(RunDiff, {Path("base.json"), Path("input.json"), "--fail-if-slower", "5"});
  EXPECT_EQ(gate.code, 3) << gate.err;
  EXPECT_NE(gate.out.find("verdict slower: mean step +"), std::string::npos) << gate.out;
  EXPECT_NE(gate.err.find("B is slower than A"), std::string::npos) << gate.err;
  // A threshold above the change passes.
  EXPECT_EQ(RunCommand(RunDiff, {Path("base.json"), Path("input.json"), "--fail-if-slower", "100000"}).code, 0);
  EXPECT_EQ(Member(Verdict({Path("input.json"), Path("base.json")}), "result").text, "faster");
  EXPECT_EQ(RunCommand(RunDiff, {Path("base.json"), Path("input.json"), "--fail-if-slower", "x"}).code, 2);
}

TEST_F(DiffVerdictTest, ASavedBaselineComparesLikeItsTrace) {
  const std::string config = (*dir_ / "config").string();
  ::setenv("XDG_CONFIG_HOME", config.c_str(), 1);
  // First use saves, later uses compare.
  const RunOutput saved = RunCommand(RunDiff, {"--baseline", "main", Path("base.json")});
  ASSERT_EQ(saved.code, 0) << saved.err;
  EXPECT_NE(saved.out.find("saved baseline main"), std::string::npos) << saved.out;
  EXPECT_TRUE(std::filesystem::exists(config + "/stepline/baselines/main.json"));

  const JsonValue from_saved = Verdict({"--baseline", "main", Path("input.json")});
  const JsonValue from_trace = Verdict({Path("base.json"), Path("input.json")});
  EXPECT_EQ(Member(from_saved, "result").text, "slower");
  for (const char* key : {"change_percent", "confidence", "p_value", "a_steps", "b_steps"}) {
    EXPECT_EQ(Member(from_saved, key).text, Member(from_trace, key).text) << key;
  }
  // The whole comparison, not only the verdict, matches the trace's.
  const RunOutput text_saved = RunCommand(RunDiff, {"--baseline", "main", Path("input.json")});
  const RunOutput text_trace = RunCommand(RunDiff, {Path("base.json"), Path("input.json")});
  const auto after_first_line = [](const std::string& s) { return s.substr(s.find('\n', s.find("\nB ")) + 1); };
  EXPECT_EQ(after_first_line(text_saved.out), after_first_line(text_trace.out));
  EXPECT_EQ(RunCommand(RunDiff, {"--baseline", "main", Path("input.json"), "--fail-if-slower", "1"}).code, 3);
  // Replacing it, and names that would leave the folder.
  EXPECT_EQ(RunCommand(RunDiff, {Path("input.json"), "--save-baseline", "main"}).code, 0);
  EXPECT_EQ(Member(Verdict({"--baseline", "main", Path("input.json")}), "result").text, "no_change");
  EXPECT_EQ(RunCommand(RunDiff, {"--baseline", "../x", Path("input.json")}).code, 1);
  ::unsetenv("XDG_CONFIG_HOME");
}

TEST_F(DiffVerdictTest, TheSharedNsightBeforeAfterPairHasAVerdict) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string before = ::stepline::testing::SharedTracePath("nsys/mfu_2gpu_before.sqlite");
  const std::string after = ::stepline::testing::SharedTracePath("nsys/mfu_2gpu_after.sqlite");
  if (!std::filesystem::exists(before) || !std::filesystem::exists(after)) GTEST_SKIP() << "no nsys before/after pair";
  const JsonValue v = Verdict({before, after});
  // The pair has no step markers: each run is one step, the device-active
  // span, and the after capture's one step is cut at its end. Too few steps
  // to test: no_change with confidence 0, said in so many words, and no
  // invented change.
  EXPECT_EQ(Member(v, "result").text, "no_change");
  EXPECT_LT(Number(Member(v, "b_steps")), 3);
  EXPECT_EQ(Member(v, "confidence").text, "0.0000");
  EXPECT_EQ(Member(v, "change_percent").text, "0.00");
  const RunOutput text = RunCommand(RunDiff, {before, after, "--fail-if-slower", "0"});
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("verdict no_change: too few full steps to judge"), std::string::npos) << text.out;
  std::printf("nsys before -> after: %s, steps %s vs %s\n", Member(v, "result").text.c_str(),
              Member(v, "a_steps").text.c_str(), Member(v, "b_steps").text.c_str());
}

}  // namespace
}  // namespace stepline::app
