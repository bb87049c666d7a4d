// `stepline report --json` of every demo scenario, in both naming styles,
// against the goldens made before ComputeAnalysis (tests/data/report_goldens/,
// README there). Every golden key must hold the same value today; a key the
// report gained since is allowed only when listed in kAddedKeys with why.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "demo/demo_scenarios.h"
#include "loaders/byte_source.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;

// Keys the report gained on purpose; see the goldens' README.
// The load's diagnostics, so a cut file is never analysed
// silently (the demos have none: `diagnostics` is an empty array).
// `memory`, the memory pools the demos now record.
// Where the steps came from, their overlap, each step's window,
// the outlier steps (step_stats, already added, gained percentiles);
// devices[].kind ("gpu", "tpu", "other") and the XLA module and op tables
// (empty arrays for the demo scenarios, which are not XLA traces).
// `complete_steps` and `notes`: on a cut file, the steps before the cut that
// whole-step figures use, and what was left out (the demos are whole).
// Serving steps and critical paths: each step's phase, batch, tokens and
// critical_path; the trace's step_engine, phases and summed critical_path.
// The efficiency figures (docs/efficiency.md): the four run-level
// objects (throughput also carries the serving phases' tokens_per_s), each
// step's FLOPs, MFU and time figures, each op's FLOPs, TFLOP/s and bound,
// each kernel's bound.
// CUDA / HIP graph replays: the `graph` idle cause (`idle_graph` in the
// breakdown), each kernel's graph_id and graph_node_id, the graph_replays list.
constexpr std::array<std::string_view, 44> kAddedKeys{
    "gpu_busy_percent", "step_stats",    "top_blamed_event", "partial",       "data_loss",
    "diagnostics",      "memory",        "step_source",      "steps_overlap", "window_dur_ns",
    "outlier_steps",    "kind",          "xla_modules",      "xla_ops",       "complete_steps",
    "notes",            "phase",         "batch",            "tokens",        "critical_path",
    "step_engine",      "phases",        "efficiency",       "communication", "launch_overhead",
    "throughput",       "flops",         "achieved_tflops",  "mfu_percent",   "memory_bound_ns",
    "collective_ns",    "exposed_ns",    "kernels",          "launch_ns",     "samples_per_s",
    "bound",            "memory_bound_percent", "top_memory_bound", "arithmetic_intensity", "graph", "idle_graph",
    "graph_id",         "graph_node_id", "graph_replays"};
// Scenarios added after the goldens were made have no "before" to compare
// with; memory_demo_test holds memory-leak's report to its planted truth.
// outlier_demo_test holds checkpoint's outliers to theirs.
constexpr std::array<std::string_view, 2> kScenariosAfterGoldens{"memory-leak", "checkpoint"};

bool IsAddedKey(std::string_view key) {
  return std::find(kAddedKeys.begin(), kAddedKeys.end(), key) != kAddedKeys.end();
}

// Appends one line per difference, naming the JSON path; stops at 20.
void Compare(const JsonValue& golden, const JsonValue& now, const std::string& path, std::vector<std::string>* out) {
  if (out->size() >= 20) return;
  if (golden.type != now.type) {
    out->push_back(path + ": type changed");
    return;
  }
  switch (golden.type) {
    case JsonValue::Type::kObject:
      for (const auto& [key, value] : golden.members) {
        const JsonValue* v = now.Find(key);
        if (v == nullptr) {
          out->push_back(path + "." + key + ": missing");
        } else {
          Compare(value, *v, path + "." + key, out);
        }
      }
      for (const auto& [key, value] : now.members) {
        if (golden.Find(key) == nullptr && !IsAddedKey(key)) out->push_back(path + "." + key + ": not in the golden");
      }
      break;
    case JsonValue::Type::kArray:
      if (golden.items.size() != now.items.size()) {
        out->push_back(path + ": " + std::to_string(golden.items.size()) + " items, now " +
                       std::to_string(now.items.size()));
        return;
      }
      for (size_t i = 0; i < golden.items.size(); ++i) {
        Compare(golden.items[i], now.items[i], path + "[" + std::to_string(i) + "]", out);
      }
      break;
    default:
      if (golden.text != now.text || golden.boolean != now.boolean) {
        out->push_back(path + ": " + golden.text + " -> " + now.text);
      }
  }
}

class ReportGoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ReportGoldenTest, ReportMatchesTheGolden) {
  const std::string name = GetParam();  // scenario-style
  const size_t dash = name.rfind('-');
  const std::string scenario = name.substr(0, dash), style_name = name.substr(dash + 1);
  const auto style = demo::ParseDemoStyle(style_name);
  ASSERT_TRUE(style.has_value());
  const auto dir = MakeScratchDir("report-golden-" + name);
  const std::string trace = (dir / "trace.json").string();
  // As `stepline demo SCENARIO --style STYLE --out FILE` (make_goldens.sh): the defaults.
  demo::DemoOptions demo;
  demo.scenario = scenario;
  demo.style = *style;
  demo.compute_truth = false;
  auto generated = demo::GenerateDemoTrace(demo);
  ASSERT_TRUE(generated.ok()) << generated.error();
  ASSERT_TRUE(exports::WriteChromeJsonFile(*generated, trace).ok());
  const RunOutput run = RunCommand(RunReport, Args{trace, "--json"});
  ASSERT_EQ(run.code, 0) << run.err;

  const std::string golden_path = std::string(STEPLINE_TEST_DATA_DIR) + "/report_goldens/" + name + ".json.gz";
  auto golden_bytes = loaders::OpenInput(golden_path, nullptr);
  ASSERT_TRUE(golden_bytes.ok()) << golden_bytes.error().message;
  const auto golden = ParseJson(golden_bytes->bytes.view());
  const auto now = ParseJson(run.out);
  ASSERT_TRUE(golden.has_value()) << golden_path;
  ASSERT_TRUE(now.has_value());
  std::vector<std::string> diffs;
  Compare(*golden, *now, "", &diffs);
  std::string text;
  for (const std::string& d : diffs) text += "  " + d + "\n";
  EXPECT_TRUE(diffs.empty()) << name << " differs from its golden:\n" << text;
  std::filesystem::remove_all(dir);
}

std::vector<std::string> GoldenNames() {
  std::vector<std::string> names;
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) {
    if (std::find(kScenariosAfterGoldens.begin(), kScenariosAfterGoldens.end(), s.name) != kScenariosAfterGoldens.end()) {
      continue;
    }
    for (std::string_view style : {"tensorflow", "pytorch"}) names.push_back(std::string(s.name) + "-" + std::string(style));
  }
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, ReportGoldenTest, ::testing::ValuesIn(GoldenNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string n = info.param;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace stepline::app
