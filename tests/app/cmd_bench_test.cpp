// `stepline bench`: the --json keys docs/cli.md documents are present and
// consistent on a tiny trace; tiling multiplies the slices; bad input fails.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/cli/commands.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;
using ::stepline::testing::TestDataPath;

constexpr uint64_t kSmallTraceSlices = 9;  // see cmd_info_test.cpp

RunOutput Bench(const Args& args) { return RunCommand(RunBench, args); }

double NumberAt(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.Find(key);
  EXPECT_NE(v, nullptr) << "missing key " << key;
  return v ? v->AsDouble().value_or(-1e300) : -1e300;
}

TEST(CmdBenchTest, JsonHasTheDocumentedKeys) {
  const std::string path = TestDataPath("app_small.json");
  const RunOutput r = Bench({path, "--json", "--repeat", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << "not exactly one JSON value:\n" << r.out;
  std::vector<std::string> keys = json->Keys();
  // frame_total_ms is there only with a GL context (a display or xvfb-run).
  std::erase(keys, "frame_total_ms");
  EXPECT_EQ(keys, (std::vector<std::string>{
                              "bytes", "slices", "load_ms", "load_mb_per_s", "peak_rss_bytes", "bytes_per_slice",
                              "bytes_per_slice_no_args", "slices_per_s", "load_ms_no_args", "cpu_ms",
                              "peak_rss_bytes_no_args", "model_bytes",
                              "model_bytes_no_args", "format", "tiled_copies", "repeat", "threads", "analysis_ms", "parse_floor_mb_per_s",
                              "load_vs_parse_floor", "parse_floor_cpu_ms", "frame_build_ms"}));
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  EXPECT_EQ(NumberAt(*json, "bytes"), static_cast<double>(file.tellg()));
  EXPECT_EQ(NumberAt(*json, "slices"), kSmallTraceSlices);
  EXPECT_GT(NumberAt(*json, "load_ms"), 0.0);
  EXPECT_GT(NumberAt(*json, "load_mb_per_s"), 0.0);
  EXPECT_GT(NumberAt(*json, "model_bytes"), 0.0);
  EXPECT_GT(NumberAt(*json, "parse_floor_mb_per_s"), 0.0);
  // One run: the paired ratio is that load's speed over its floor's.
  const double load_mb_per_s = NumberAt(*json, "bytes") / 1e3 / NumberAt(*json, "load_ms");
  const double ratio = load_mb_per_s / NumberAt(*json, "parse_floor_mb_per_s");
  EXPECT_GT(NumberAt(*json, "load_vs_parse_floor"), 0.0);
  // Each figure is printed rounded (load_ms to 0.001 ms, the floor to 0.1 MB/s, the ratio to
  // 0.001), and this tiny trace's floor, thread starts included, runs at a few MB/s: the
  // recomputed ratio agrees within what the rounding allows (a fixed 1% failed under load).
  const double rounding = ratio * (0.05 / NumberAt(*json, "parse_floor_mb_per_s") +
                                   0.0005 / NumberAt(*json, "load_ms")) + 0.0005;
  EXPECT_NEAR(NumberAt(*json, "load_vs_parse_floor"), ratio, 1.01 * rounding + 1e-9);
  EXPECT_EQ(NumberAt(*json, "tiled_copies"), 0.0);
  EXPECT_EQ(json->Find("format")->text, "chrome-json");
  // Every figure is positive and agrees with the others.
  for (const char* key : {"bytes", "slices", "load_ms", "load_mb_per_s", "peak_rss_bytes", "bytes_per_slice",
                          "bytes_per_slice_no_args", "slices_per_s", "load_ms_no_args", "cpu_ms",
                          "peak_rss_bytes_no_args", "model_bytes", "model_bytes_no_args", "repeat", "analysis_ms",
                          "parse_floor_mb_per_s", "load_vs_parse_floor", "parse_floor_cpu_ms"}) {
    EXPECT_GT(NumberAt(*json, key), 0.0) << key;
  }
  const double slices = NumberAt(*json, "slices");
  EXPECT_NEAR(NumberAt(*json, "bytes_per_slice"), NumberAt(*json, "model_bytes") / slices, 0.01);
  EXPECT_NEAR(NumberAt(*json, "bytes_per_slice_no_args"), NumberAt(*json, "model_bytes_no_args") / slices, 0.01);
  EXPECT_LE(NumberAt(*json, "model_bytes_no_args"), NumberAt(*json, "model_bytes"));
  // The child's peak holds the input it was handed.
  EXPECT_GE(NumberAt(*json, "peak_rss_bytes"), NumberAt(*json, "bytes"));
  // Speeds are the load's: within what printing load_ms to 0.001 ms and the
  // speeds to 0.1 MB/s and 1 slice/s allows.
  const double load_ms = NumberAt(*json, "load_ms");
  const double relative = 0.0005 / load_ms * 1.01;
  const double mb_per_s = NumberAt(*json, "bytes") / 1e3 / load_ms;
  EXPECT_NEAR(NumberAt(*json, "load_mb_per_s"), mb_per_s, mb_per_s * relative + 0.05 + 1e-9);
  const double slices_per_s = slices * 1e3 / load_ms;
  EXPECT_NEAR(NumberAt(*json, "slices_per_s"), slices_per_s, slices_per_s * relative + 0.5 + 1e-9);
}

TEST(CmdBenchTest, TileMbBuildsALargerTraceWithProportionalSlices) {
  const RunOutput r = Bench({TestDataPath("app_small.json"), "--json", "--repeat", "1", "--tile-mb", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << r.out;
  const double copies = NumberAt(*json, "tiled_copies");
  EXPECT_GE(NumberAt(*json, "bytes"), 1e6);
  EXPECT_GT(copies, 100.0);
  EXPECT_EQ(NumberAt(*json, "slices"), copies * kSmallTraceSlices);
}

// --sqlite adds the export's speed and SQLite's own floors.
TEST(CmdBenchTest, SqliteAddsTheExportAndItsFloors) {
  const RunOutput r = Bench({TestDataPath("app_small.json"), "--json", "--repeat", "1", "--sqlite"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << r.out;
  for (const char* key : {"export_ms", "export_cpu_ms", "export_slices_per_s", "export_slices_per_s_cpu",
                          "sqlite_floor_insert_rows_per_s", "sqlite_floor_name_index_rows_per_s"}) {
    EXPECT_GT(NumberAt(*json, key), 0.0) << key;
  }
  EXPECT_NEAR(NumberAt(*json, "export_slices_per_s"), kSmallTraceSlices / NumberAt(*json, "export_ms") * 1e3, 1.0);
  const RunOutput text = Bench({TestDataPath("app_small.json"), "--repeat", "1", "--sqlite"});
  EXPECT_NE(text.out.find("SQLite floor"), std::string::npos) << text.out;
}

TEST(CmdBenchTest, TextFormReportsSpeedAndMemory) {
  const RunOutput r = Bench({TestDataPath("app_small.json"), "--repeat", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(" MB/s, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("without args: "), std::string::npos) << r.out;
}

TEST(CmdBenchTest, FailuresExitOneOrTwo) {
  const std::string missing = TestDataPath("no_such_trace.json");
  const RunOutput no_file = Bench({missing, "--repeat", "1"});
  EXPECT_EQ(no_file.code, 1);
  EXPECT_NE(no_file.err.find(missing), std::string::npos) << no_file.err;

  for (const Args& args :
       {Args{}, Args{"x.json", "--repeat", "0"}, Args{"x.json", "--tile-mb", "lots"}, Args{"x.json", "--frobnicate"}}) {
    const RunOutput r = Bench(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("usage: stepline bench"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace stepline::app
