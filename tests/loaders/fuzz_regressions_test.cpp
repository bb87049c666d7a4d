// Every input a fuzzer found (tests/fuzz/regressions/<target>/) goes through
// the same checks as in its fuzz target (tests/fuzz/fuzz_check.h): no crash,
// model invariants, threads 1 and 2 and args on and off agreeing. In the
// sanitizer build (scripts/test.sh) ASan and UBSan watch these loads too.
// A new fuzz target adds its row to kTargets.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "loaders/byte_source.h"
#include "loaders/decode_stream.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/load.h"
#include "loaders/nsys/nsys_loader.h"
#include "loaders/perfetto/perfetto_loader.h"
#include "loaders/rocprof/rocprof_loader.h"
#include "loaders/torch_snapshot/snapshot_loader.h"
#include "loaders/xspace/xspace_loader.h"
#include "tests/fuzz/fuzz_check.h"

namespace stepline::testing {
namespace {

using loaders::DecodedInput;
using loaders::LoadOptions;

struct Target {
  const char* name;
  uint64_t max_decoded_bytes;  // as in the fuzz target
  std::function<Result<Trace, loaders::LoadError>(const DecodedInput&, const LoadOptions&)> load;
};

const Target kTargets[] = {
    {"chrome_json", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) {
       loaders::ChromeJsonTuning tuning;
       tuning.chunk_bytes = o.threads > 1 ? 64 : 0;  // as fuzz_chrome_json.cpp
       return loaders::LoadChromeJson(in, "fuzz-input", o, nullptr, tuning);
     }},
    {"xspace", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) { return loaders::LoadXSpace(in, "fuzz-input", o, nullptr); }},
    {"perfetto", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) { return loaders::LoadPerfetto(in, "fuzz-input", o, nullptr); }},
    {"byte_source", uint64_t{16} << 20,
     [](const DecodedInput& in, const LoadOptions& o) {
       return loaders::LoadDecodedInput(in, "fuzz-input", o, nullptr);
     }},
    {"nsys", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) { return loaders::LoadNsysSqlite(in, "fuzz-input", o, nullptr); }},
    {"rocprof", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) { return loaders::LoadRocprofJson(in, "fuzz-input", o, nullptr); }},
    {"torch_snapshot", uint64_t{64} << 20,
     [](const DecodedInput& in, const LoadOptions& o) {
       return loaders::LoadTorchSnapshot(in, "fuzz-input", o, nullptr);
     }},
};

std::string ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Loads `json` as fuzz_chrome_json.cpp does: with 2 threads in 64-byte
// chunks (or `chunk_bytes`), with 1 thread in one chunk.
Result<Trace, loaders::LoadError> LoadChunked(const std::string& json, const LoadOptions& o,
                                             uint64_t chunk_bytes = 64) {
  auto input = loaders::DecodeBytes(json, "damaged.json", nullptr);
  loaders::ChromeJsonTuning tuning;
  tuning.chunk_bytes = o.threads > 1 ? chunk_bytes : 0;
  return loaders::LoadChromeJson(*input, "damaged.json", o, nullptr, tuning);
}

TEST(FuzzRegressions, EveryCommittedFindingLoadsCleanlyEveryWay) {
  const std::filesystem::path root = std::filesystem::path(STEPLINE_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
  size_t inputs = 0;
  for (const Target& target : kTargets) {
    const auto dir = root / target.name;
    if (!std::filesystem::is_directory(dir)) continue;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      const std::string bytes = ReadAll(file);
      auto input = loaders::DecodeBytes(bytes, file.string(), nullptr, target.max_decoded_bytes);
      ++inputs;
      if (!input.ok()) continue;  // a clean error is a pass
      const std::string finding =
          fuzz::CheckEveryWay([&](const LoadOptions& o) { return target.load(*input, o); });
      EXPECT_EQ(finding, "") << target.name << "/" << file.filename().string();
    }
  }
  EXPECT_GT(inputs, 0u) << "no committed fuzz findings under " << root;
}

// The finding behind regressions/chrome_json/repeated_tid_string_then_number.json:
// a second "tid" (a number) after a first one (a name) must replace it, not
// be read as a string id.
TEST(FuzzRegressions, RepeatedTidKeyTakesTheLastValue) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":"worker:empty","tid":"1890023232","ts":1,"dur":2}]})";
  auto r = loaders::LoadBytes(json, "repeated.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  ASSERT_EQ(r->slices().size(), 1u);
  EXPECT_EQ(r->tracks().tid(r->slices().track()[0]), 1890023232);
}

// The finding behind regressions/chrome_json/parallel_scan_stricter_than_serial.json:
// damage inside a nested arg value loads the same with 64-byte parallel
// chunks as in one chunk.
TEST(FuzzRegressions, DamagedNestedArgLoadsTheSameWhateverTheChunks) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":{"dims":[[2,3],e name":"x"}},)"
      R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":2}]})";
  const std::string finding = fuzz::CheckEveryWay([&](const LoadOptions& o) { return LoadChunked(json, o); });
  EXPECT_EQ(finding, "");
}

// The finding behind regressions/chrome_json/name_string_followed_by_colon.json:
// damage simdjson tolerates (a stray ':' member, balanced by a stray '}')
// in the same chunk as a cut tail. One chunk used to fail at the damage (the
// exact scan saw it) while 64-byte chunks loaded (the damage parsed in a
// chunk of its own); now both read the damaged event as a chunk of its own
// does, and load the events after it up to the cut.
TEST(FuzzRegressions, ToleratedDamageBeforeACutLoadsTheSameWhateverTheChunks) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a":0.07,"pid":1,"tid":1,"ts":1,"dur":2}},)"
      R"({"ph":"i","name":"m","pid":1,"tid":1,"ts":5,"s":"t"},{"ph":"X","name":"cut here)";
  for (uint64_t chunk : {0, 64, 96}) {
    LoadOptions o;
    o.threads = chunk == 0 ? 1 : 2;
    auto r = LoadChunked(json, o, chunk);
    ASSERT_TRUE(r.ok()) << "chunk " << chunk << ": " << r.error().ToString();
    EXPECT_EQ(r->instants().size(), 1u) << "chunk " << chunk;
    EXPECT_EQ(r->diagnostics().count(DiagCode::kTruncated), 1u) << "chunk " << chunk;
  }
  const std::string finding = fuzz::CheckEveryWay([&](const LoadOptions& o) { return LoadChunked(json, o); });
  EXPECT_EQ(finding, "");
}

// Damage simdjson does not tolerate stays a syntax error at its byte, the
// same with one chunk or many.
TEST(FuzzRegressions, UntoleratedDamageIsASyntaxErrorAtItsByte) {
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a":0.07,"pid":1,"tid":1,"ts":1,"dur":2},)"
      R"({"ph":"i","name":"m","pid":1,"tid":1,"ts":5,"s":"t"}]})";
  for (uint64_t chunk : {0, 64}) {
    LoadOptions o;
    o.threads = chunk == 0 ? 1 : 2;
    auto r = LoadChunked(json, o, chunk);
    ASSERT_FALSE(r.ok()) << "chunk " << chunk;
    EXPECT_EQ(r.error().byte_offset, json.find(":0.07")) << r.error().ToString();
  }
}

// The finding behind regressions/byte_source/zstd_frame_larger_than_declared.zst
// (fuzz_byte_source, CI smoke run): a zstd frame whose data outgrows the
// content size its header declares. The whole decode, given exactly that
// room, got zstd's "Destination buffer is too small"; the streamed decode
// "Data corruption detected". Both now say the data is corrupt, in one message.
TEST(FuzzRegressions, ZstdFrameLargerThanDeclaredIsCorruptTheSameWayStreamed) {
  const std::string bytes = ReadAll(std::filesystem::path(STEPLINE_SOURCE_DIR) / "tests" / "fuzz" / "regressions" /
                                    "byte_source" / "zstd_frame_larger_than_declared.zst");
  ASSERT_FALSE(bytes.empty());
  auto whole = loaders::DecodeBytes(bytes, "fuzz-input", nullptr, uint64_t{16} << 20);
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.error().message.find("zstd data corrupt at compressed byte 12 (Data corruption detected)"),
            std::string::npos)
      << whole.error().message;
  loaders::ByteBuffer copy = loaders::ByteBuffer::Allocate(bytes.size());
  std::copy(bytes.begin(), bytes.end(), copy.mutable_data());
  loaders::StreamOptions options;  // as fuzz_byte_source.cpp
  options.max_decoded_bytes = uint64_t{16} << 20;
  options.ahead_bytes = 4096;
  options.zstd_threads = 2;
  auto stream = loaders::DecodeStream::Start(std::move(copy), "fuzz-input", nullptr, options);
  ASSERT_NE(stream, nullptr);
  auto streamed = stream->TakeResult();
  ASSERT_FALSE(streamed.ok());
  EXPECT_EQ(streamed.error().code, whole.error().code);
  EXPECT_EQ(streamed.error().message, whole.error().message);
}

}  // namespace
}  // namespace stepline::testing
