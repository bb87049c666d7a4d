// `stepline info`: the --json object has exactly the keys docs/cli.md documents,
// with values checked by hand against tests/data/app_small.json; load failures
// exit 1 naming the file; the text form carries the same facts.
#include <gtest/gtest.h>

#include <filesystem>
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

RunOutput Info(const Args& args) { return RunCommand(RunInfo, args); }

std::string WriteTempFile(const std::string& name, const std::string& bytes) {
  const auto path = std::filesystem::temp_directory_path() / ("stepline_app_test_" + name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

uint64_t Uint(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.Find(key);
  EXPECT_NE(v, nullptr) << key;
  if (v == nullptr) return UINT64_MAX;
  const auto n = v->AsUint();
  EXPECT_TRUE(n.has_value()) << key << " is not an unsigned integer: " << v->text;
  return n.value_or(UINT64_MAX);
}

// The documented key lists, the same for every input format.
void ExpectDocumentedKeys(const JsonValue& json) {
  ASSERT_EQ(json.type, JsonValue::Type::kObject);
  EXPECT_EQ(json.Keys(),
            (std::vector<std::string>{"format", "bytes", "load_ms", "slices", "instants", "counter_samples", "flows",
                                      "memory_events", "tracks", "span_ns", "gpu", "steps", "diagnostics"}));
  EXPECT_EQ(json.Find("tracks")->Keys(),
            (std::vector<std::string>{"host_thread", "gpu_stream", "gpu_derived", "counter", "async", "markers"}));
  EXPECT_EQ(json.Find("gpu")->Keys(),
            (std::vector<std::string>{"kernel", "kernel_ns", "collective", "collective_ns", "memcpy_h2d",
                                      "memcpy_h2d_ns", "memcpy_d2h", "memcpy_d2h_ns", "memcpy_other", "memcpy_other_ns",
                                      "memset", "memset_ns"}));
  const JsonValue* diagnostics = json.Find("diagnostics");
  ASSERT_EQ(diagnostics->type, JsonValue::Type::kArray);
  for (const JsonValue& d : diagnostics->items) {
    EXPECT_EQ(d.Keys(), (std::vector<std::string>{"code", "count", "first_offset", "message"}));
  }
}

TEST(CmdInfoTest, JsonHasExactlyTheDocumentedKeys) {
  const RunOutput r = Info({TestDataPath("app_small.json"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << "not exactly one JSON value:\n" << r.out;
  ExpectDocumentedKeys(*json);
  EXPECT_FALSE(json->Find("diagnostics")->items.empty());
}

// Expected values worked out by hand from the file (see its events).
TEST(CmdInfoTest, JsonValuesMatchTheSmallTrace) {
  const std::string path = TestDataPath("app_small.json");
  const std::string text = ReadFile(path);
  const RunOutput r = Info({path, "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << r.out;
  EXPECT_EQ(json->Find("format")->text, "chrome-json");
  EXPECT_EQ(Uint(*json, "bytes"), text.size());
  EXPECT_GE(json->Find("load_ms")->AsDouble().value_or(-1), 0.0);
  // 3 host X + 6 GPU X; the instant is the one "i" event; 2 counter samples.
  EXPECT_EQ(Uint(*json, "slices"), 9u);
  EXPECT_EQ(Uint(*json, "instants"), 1u);
  EXPECT_EQ(Uint(*json, "counter_samples"), 2u);
  EXPECT_EQ(Uint(*json, "flows"), 1u);  // the ac2g arrow and the correlation link are one launch flow
  const JsonValue& tracks = *json->Find("tracks");
  EXPECT_EQ(Uint(tracks, "host_thread"), 1u);
  EXPECT_EQ(Uint(tracks, "gpu_stream"), 2u);
  EXPECT_EQ(Uint(tracks, "counter"), 1u);
  EXPECT_EQ(Uint(tracks, "async"), 0u);
  // From the first event (ts 1000 us) to the last counter sample (1700 us).
  EXPECT_EQ(Uint(*json, "span_ns"), 700'000u);
  const JsonValue& gpu = *json->Find("gpu");
  EXPECT_EQ(Uint(gpu, "kernel"), 2u);  // gemm + the NCCL collective
  EXPECT_EQ(Uint(gpu, "kernel_ns"), 90'000u);
  EXPECT_EQ(Uint(gpu, "collective"), 1u);
  EXPECT_EQ(Uint(gpu, "collective_ns"), 40'000u);
  EXPECT_EQ(Uint(gpu, "memcpy_h2d"), 1u);
  EXPECT_EQ(Uint(gpu, "memcpy_h2d_ns"), 20'000u);
  EXPECT_EQ(Uint(gpu, "memcpy_d2h"), 1u);
  EXPECT_EQ(Uint(gpu, "memcpy_d2h_ns"), 10'000u);
  EXPECT_EQ(Uint(gpu, "memcpy_other"), 1u);  // the DtoD copy
  EXPECT_EQ(Uint(gpu, "memcpy_other_ns"), 5'000u);
  EXPECT_EQ(Uint(gpu, "memset"), 1u);
  EXPECT_EQ(Uint(gpu, "memset_ns"), 3'000u);
  EXPECT_EQ(Uint(*json, "steps"), 1u);

  const JsonValue& diagnostics = *json->Find("diagnostics");
  ASSERT_EQ(diagnostics.items.size(), 1u) << r.out;
  const JsonValue& unmatched = diagnostics.items[0];
  EXPECT_EQ(unmatched.Find("code")->text, "unmatched_end");
  EXPECT_EQ(Uint(unmatched, "count"), 1u);
  // The offset points into the lone "E" event.
  const size_t e_begin = text.find("{\"ph\": \"E\"");
  const size_t e_end = text.find('}', e_begin);
  const uint64_t offset = Uint(unmatched, "first_offset");
  EXPECT_GE(offset, e_begin);
  EXPECT_LE(offset, e_end);
  EXPECT_FALSE(unmatched.Find("message")->text.empty());
}

TEST(CmdInfoTest, TextFormShowsTheSameFacts) {
  const std::string path = TestDataPath("app_small.json");
  const RunOutput r = Info({path});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("file             " + path + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("format           chrome-json\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("slices           9\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("span             700.0 \xC2\xB5s\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gpu kernels      2 (90.00 \xC2\xB5s), incl. collective 1 (40.00 \xC2\xB5s)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("device 0         2 streams; kernels 2 (90.00 \xC2\xB5s)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("steps            1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unmatched_end x1, first at byte "), std::string::npos) << r.out;
}

// XSpace prints the same keys as JSON. Values: the TensorFlow GPU profile's
// facts from tests/data/xspace_facts.py (kernels 665 + 665 on GPU:4 and
// GPU:6 with 14825385 + 14865363 ns; H2D 19 + 82 + 101; D2H 24; 9 streams
// with events; 22 /host:CPU threads; Steps, TensorFlow Ops and TensorFlow
// Name Scope on two GPUs; one step "0" shown on both).
TEST(CmdInfoTest, XSpaceJsonHasTheSameKeysAndTheCountedFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const RunOutput r =
      Info({::stepline::testing::SharedTracePath("xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto json = ParseJson(r.out);
  ASSERT_TRUE(json.has_value()) << r.out;
  ExpectDocumentedKeys(*json);
  EXPECT_EQ(json->Find("format")->text, "xplane");
  EXPECT_EQ(Uint(*json, "bytes"), 3039638u);  // the file is not compressed
  const JsonValue& gpu = *json->Find("gpu");
  EXPECT_EQ(Uint(gpu, "kernel"), 1330u);
  EXPECT_EQ(Uint(gpu, "kernel_ns"), 14825385u + 14865363u);
  EXPECT_EQ(Uint(gpu, "memcpy_h2d"), 202u);
  EXPECT_EQ(Uint(gpu, "memcpy_d2h"), 24u);
  const JsonValue& tracks = *json->Find("tracks");
  EXPECT_EQ(Uint(tracks, "host_thread"), 22u);
  EXPECT_EQ(Uint(tracks, "gpu_stream"), 9u);
  EXPECT_EQ(Uint(tracks, "gpu_derived"), 6u);
  EXPECT_EQ(Uint(*json, "steps"), 1u);
  EXPECT_EQ(Uint(*json, "flows"), 1556u);
}

// One line per memory pool. Fragmentation (reserved - allocated at the peak)
// is claimed only when the levels allow it: never a negative figure.
TEST(CmdInfoTest, MemoryLineGivesFragmentationOnlyWhenTheLevelsAgree) {
  const auto demo = std::filesystem::temp_directory_path() / "stepline_app_test_memory_baseline.json";
  ASSERT_EQ(RunCommand(RunDemo, {"baseline", "--style", "pytorch", "--out", demo.string(), "--force"}).code, 0);
  const RunOutput r = Info({demo.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("memory GPU 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reserved - allocated at the peak: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("at the peak: -"), std::string::npos) << r.out;
  std::filesystem::remove(demo);

  // The shared sample snapshot is synthetic: its segments reserve less than
  // its trace allocates (262.1 MB against a 2.3 GB peak).
  const std::string snapshot = ::stepline::testing::SharedTracePath("memory_snapshots/mosaic_output.pickle");
  if (!std::filesystem::exists(snapshot)) GTEST_SKIP() << "no shared traces at " << snapshot;
  const RunOutput s = Info({snapshot});
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_NE(s.out.find("reserved is below allocated at the peak"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("at the peak: -"), std::string::npos) << s.out;
}

TEST(CmdInfoTest, MissingFileExitsOneNamingThePath) {
  const std::string path = TestDataPath("no_such_trace.json");
  const RunOutput r = Info({path, "--json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");  // nothing on stdout: a --json consumer sees no half object
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
}

TEST(CmdInfoTest, CorruptGzipExitsOneNamingThePath) {
  // A gzip header followed by bytes that inflate to nothing usable.
  const std::string path = WriteTempFile(
      "corrupt.json.gz", std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10) + std::string(64, '\xff'));
  const RunOutput r = Info({path});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  std::filesystem::remove(path);
}

TEST(CmdInfoTest, UnknownFormatExitsOneNamingThePath) {
  const std::string path = WriteTempFile("unknown.bin", "this is not a trace\n");
  const RunOutput r = Info({path});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  std::filesystem::remove(path);
}

TEST(CmdInfoTest, BadArgumentsExitTwoWithUsage) {
  for (const Args& args : {Args{}, Args{"a.json", "b.json"}, Args{"a.json", "--jsn"}}) {
    const RunOutput r = Info(args);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("usage: stepline info"), std::string::npos) << r.err;
  }
  const RunOutput help = Info({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("usage: stepline info"), std::string::npos);
}

}  // namespace
}  // namespace stepline::app
