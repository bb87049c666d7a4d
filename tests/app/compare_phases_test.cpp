// Compare aligns phase with phase, end to end: two planted serving loops
// (demo::PlantedServingTrace, decode steps of 2 ms in A and 3 ms in B) written
// as Kineto JSON, then `stepline diff` (--json and text) and the compare view
// under xvfb-run (the summary's phase rows).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "app/cli/commands.h"
#include "demo/demo_planted.h"
#include "export/chrome_json_writer.h"
#include "tests/app/command_test_helpers.h"
#include "tests/app/screenshot_test_helpers.h"
#include "model/json_value.h"
#include "ui/compare/compare_summary.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;

// A and B serving loops on disk, written once for the file's tests.
class PhaseDiffFiles {
 public:
  static const PhaseDiffFiles& Get() {
    static const PhaseDiffFiles files;
    return files;
  }
  std::string a, b, training;

 private:
  PhaseDiffFiles() {
    const fs::path dir = MakeScratchDirRemovedAtExit("compare-phases");
    a = (dir / "serving_a.json").string();
    b = (dir / "serving_b.json").string();
    training = (dir / "training.json").string();
    Write(demo::PlantedServingTrace(demo::PlantedEngine::kSglang, 2'000), a);
    Write(demo::PlantedServingTrace(demo::PlantedEngine::kSglang, 3'000), b);
    Write(demo::PlantedCriticalPathTrace(), training);
  }
  static void Write(const Trace& trace, const std::string& path) {
    auto written = exports::WriteChromeJsonFile(trace, path);
    EXPECT_TRUE(written.ok()) << written.error();
  }
};

const ::stepline::JsonValue* PhaseEntry(const ::stepline::JsonValue& json, std::string_view phase) {
  for (const auto& entry : Member(json, "phases").items) {
    if (Member(entry, "phase").text == phase) return &entry;
  }
  return nullptr;
}

TEST(ComparePhasesDiffTest, JsonHasOneEntryPerPhaseWithKnownValues) {
  const PhaseDiffFiles& f = PhaseDiffFiles::Get();
  const RunOutput run = RunCommand(RunDiff, {f.a, f.b, "--json"});
  ASSERT_EQ(run.code, 0) << run.err;
  const auto json = ::stepline::ParseJson(run.out);
  ASSERT_TRUE(json.has_value()) << run.out.substr(0, 500);
  ASSERT_EQ(Member(*json, "phases").items.size(), 3u);
  const auto* decode = PhaseEntry(*json, "decode");
  ASSERT_NE(decode, nullptr);
  EXPECT_EQ(Number(Member(*decode, "a_steps")), 5);
  EXPECT_EQ(Number(Member(*decode, "a_step_mean_ns")), 2'000'000);
  EXPECT_EQ(Number(Member(*decode, "b_step_mean_ns")), 3'000'000);
  EXPECT_EQ(Number(Member(*decode, "delta_step_mean_ns")), 1'000'000);
  EXPECT_EQ(Member(*decode, "a_tokens_per_s").text, "2000.0");    // 20 tokens in 10 ms
  EXPECT_EQ(Member(*decode, "b_tokens_per_s").text, "1333.3");    // 20 tokens in 15 ms
  EXPECT_EQ(Member(*decode, "delta_tokens_per_s").text, "-666.7");
  EXPECT_TRUE(Member(*decode, "a_mfu_percent").is_null()) << "no FLOPs recorded: MFU unknown";
  const auto* prefill = PhaseEntry(*json, "prefill");
  ASSERT_NE(prefill, nullptr);
  EXPECT_EQ(Number(Member(*prefill, "delta_step_mean_ns")), 0);
  EXPECT_EQ(Member(*prefill, "a_tokens_per_s").text, "204800.0");  // 2048 tokens in 10 ms
}

TEST(ComparePhasesDiffTest, TextShowsPhaseRowsInsteadOfTheOverallMeanStep) {
  const PhaseDiffFiles& f = PhaseDiffFiles::Get();
  const RunOutput run = RunCommand(RunDiff, {f.a, f.b});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("Serving phases, phase with phase"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("decode mean step"), std::string::npos);
  EXPECT_NE(run.out.find("decode tokens/s"), std::string::npos);
  EXPECT_NE(run.out.find("2000.0/s"), std::string::npos);
  EXPECT_EQ(run.out.find("  mean step "), std::string::npos) << "a prefill step compared with a decode step";
  // Training against serving: no phases, the overall row stays.
  const RunOutput mixed = RunCommand(RunDiff, {f.training, f.a});
  ASSERT_EQ(mixed.code, 0) << mixed.err;
  EXPECT_EQ(mixed.out.find("Serving phases"), std::string::npos);
  EXPECT_NE(mixed.out.find("  mean step "), std::string::npos);
}

TEST(ComparePhasesDiffTest, WindowLabelsNameThePhase) {
  const Trace a = demo::PlantedServingTrace(demo::PlantedEngine::kVllm, 2'000);
  const Trace b = demo::PlantedServingTrace(demo::PlantedEngine::kVllm, 3'000);
  const analysis::Comparison c = analysis::Compare(a, b);
  std::set<std::string> labels;
  for (size_t i = 0; i < c.summary.size(); ++i) labels.insert(ui::SummaryLabel(c, i));
  EXPECT_TRUE(labels.count("Decode: mean step"));
  EXPECT_TRUE(labels.count("Prefill: tokens/s"));
  EXPECT_FALSE(labels.count("Mean step time"));
  for (size_t i = 0; i < c.summary.size(); ++i) {
    if (c.summary[i].label == "decode tokens/s") {
      EXPECT_EQ(ui::FormatSummaryValue(c.summary[i].unit, c.summary[i].a), "2000.0/s");
      EXPECT_EQ(ui::FormatSummaryDelta(c.summary[i]), "-666.7/s");
    }
    if (c.summary[i].label == "prefill tokens/s") {  // thousands as k: the column's width
      EXPECT_EQ(ui::FormatSummaryValue(c.summary[i].unit, c.summary[i].a), "204.8k/s");
    }
  }
}

// The compare view of the two loops in a real window: drawn, both run colours,
// and not the same picture as A against itself (the phase rows differ).
TEST(ComparePhasesScreenshotTest, CompareViewShowsThePhaseRows) {
  if (!::stepline::testing::HaveXvfb()) GTEST_SKIP() << "xvfb-run not installed; the compare screenshot needs it";
  const PhaseDiffFiles& f = PhaseDiffFiles::Get();
  const fs::path dir = MakeScratchDirRemovedAtExit("compare-phases-png");
  const std::string ab = (dir / "phases.png").string(), aa = (dir / "same.png").string();
  ASSERT_EQ(::stepline::testing::Screenshot("'" + f.a + "' '" + f.b + "' --view compare --size 1280x720 --out '" + ab + "'"), 0);
  ASSERT_EQ(::stepline::testing::Screenshot("'" + f.a + "' '" + f.a + "' --view compare --size 1280x720 --out '" + aa + "'"), 0);
  const auto img = ::stepline::testing::ReadPng(ab);
  ASSERT_EQ(img.w, 1280);
  ASSERT_EQ(img.h, 720);
  const std::set<uint32_t> colors = ::stepline::testing::Colors(img);
  EXPECT_GT(colors.size(), 60u) << "the picture looks blank";
  EXPECT_TRUE(colors.count(100u | 165u << 8 | 255u << 16)) << "no A-coloured pixel";
  EXPECT_TRUE(colors.count(255u | 171u << 8 | 64u << 16)) << "no B-coloured pixel";
  EXPECT_NE(::stepline::testing::ReadPng(aa).rgba, img.rgba);
}

}  // namespace
}  // namespace stepline::app
