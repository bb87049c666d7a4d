// Chrome JSON loader: the parallel chunked parse gives exactly the trace of
// the sequential one, including when speculative splits land in strings or
// nested args (and must be re-planned), and progress/cancel work.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "tests/loaders/gzip_for_test.h"
#include "tests/loaders/mapping_rss.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// Every table, strings resolved, one line per row (ids differ between runs
// only in interning order).
std::string Dump(const Trace& t) {
  std::ostringstream out;
  auto track = [&](TrackId id) {
    std::ostringstream s;
    s << TrackKindName(t.tracks().kind(id)) << ":" << t.processes().pid(t.tracks().process(id)) << "/"
      << t.tracks().tid(id) << ":" << t.str(t.tracks().name(id)) << ":dev" << t.tracks().device_id(id) << ":sort"
      << t.tracks().sort_index(id);
    return s.str();
  };
  auto args = [&](ArgSetId set) {
    std::ostringstream s;
    if (set.is_none()) return s.str();
    for (uint32_t r = t.args().set_begin(set); r < t.args().set_end(set); ++r) {
      const ArgValue v = t.args().value(r);
      s << " " << t.str(t.args().key()[r]) << "=" << static_cast<int>(v.type) << ":";
      if (v.type == ArgType::kString || v.type == ArgType::kJson)
        s << t.str(v.as_string());
      else
        s << v.bits;
    }
    return s.str();
  };
  auto slice = [&](size_t i) {
    std::ostringstream s;
    s << track(t.slices().track()[i]) << " " << t.slices().start_ns()[i] << "+" << t.slices().dur_ns()[i] << " "
      << t.str(t.slices().name()[i]) << " [" << t.str(t.slices().category()[i]) << "] "
      << GpuKindName(t.slices().gpu_kind()[i]) << " d" << t.slices().depth()[i] << args(t.slices().arg_set()[i]);
    return s.str();
  };
  for (size_t i = 0; i < t.processes().size(); ++i) {
    const ProcessId p = ProcessId::FromIndex(i);
    out << "process " << t.processes().pid(p) << " " << t.str(t.processes().name(p)) << " dev"
        << t.processes().device_id(p) << " sort" << t.processes().sort_index(p) << "\n";
  }
  for (size_t i = 0; i < t.tracks().size(); ++i) out << "track " << track(TrackId::FromIndex(i)) << "\n";
  for (size_t i = 0; i < t.slices().size(); ++i) out << "slice " << slice(i) << "\n";
  for (size_t i = 0; i < t.instants().size(); ++i) {
    out << "instant " << track(t.instants().track()[i]) << " " << t.instants().ts_ns()[i] << " "
        << t.str(t.instants().name()[i]) << args(t.instants().arg_set()[i]) << "\n";
  }
  for (size_t i = 0; i < t.counters().size(); ++i) {
    out << "counter " << track(t.counters().track()[i]) << " " << t.counters().ts_ns()[i] << " "
        << t.counters().value()[i] << "\n";
  }
  for (size_t i = 0; i < t.flows().size(); ++i) {
    out << "flow " << static_cast<int>(t.flows().kind()[i]) << " " << slice(t.flows().from()[i].index()) << " -> "
        << slice(t.flows().to()[i].index()) << "\n";
  }
  for (const Diagnostics::Entry* e : t.diagnostics().NonEmpty()) {
    out << "diag " << GetDiagCodeInfo(e->code).name << " x" << e->count << " @" << e->first_offset << "\n";
    for (const auto& inst : e->instances) out << "  @" << inst.byte_offset << " " << inst.detail << "\n";
  }
  out << "metadata" << args(t.info().metadata) << " origin " << t.info().wall_clock_origin_ns << "\n";
  return out.str();
}

std::string LoadAndDump(std::string_view json, int threads, uint64_t chunk_bytes) {
  auto input = DecodeBytes(json, "p.json", nullptr);
  EXPECT_TRUE(input.ok());
  LoadOptions options;
  options.threads = threads;
  ChromeJsonTuning tuning;
  tuning.chunk_bytes = chunk_bytes;
  auto trace = LoadChromeJson(*input, "p.json", options, nullptr, tuning);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
  return trace.ok() ? Dump(*trace) : trace.error().ToString();
}

// A Kineto-like trace using every phase, with strings and args that contain
// the "}, {" split pattern.
std::string MixedTrace(int n) {
  std::ostringstream s;
  s << R"({"schemaVersion": 1, "deviceProperties": [{"id": 0}, {"id": 1}], "traceEvents": [)"
    << "\n";
  for (int i = 0; i < n; ++i) {
    const int ts = 1000 + i * 10;
    if (i) s << ",\n";
    switch (i % 12) {
      case 0: s << R"({"ph": "B", "name": "step", "pid": 1, "tid": 1, "ts": )" << ts << "}"; break;
      case 1:
        s << R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" << ts
          << R"(, "dur": 3, "args": {"correlation": )" << i << R"(, "note": "}, {\"fake\": 1}, {"}})";
        break;
      case 2:
        s << R"({"ph": "X", "cat": "kernel", "name": "gemm_)" << i % 5 << R"(", "pid": 0, "tid": 7, "ts": )" << ts + 4
          << R"(, "dur": 5, "args": {"correlation": )" << i - 1 << R"(, "grid": [{"x": 1}, {"y": 2}]}})";
        break;
      case 3:
        s << R"({"ph": "s", "id": )" << i << R"(, "cat": "ac2g", "name": "ac2g", "pid": 1, "tid": 1, "ts": )" << ts
          << "}";
        break;
      case 4:
        s << R"({"ph": "f", "id": )" << i - 1 << R"(, "cat": "ac2g", "name": "ac2g", "pid": 0, "tid": 7, "ts": )"
          << ts + 20 << R"(, "bp": "e"})";
        break;
      case 5:
        s << R"({"ph": "C", "name": "mem", "pid": 1, "ts": )" << ts << R"(, "args": {"used": )" << i << R"(, "free": )"
          << n - i << "}}";
        break;
      case 6:
        s << R"({"ph": "i", "name": "mark", "s": ")"
          << "tpg"[i % 3] << R"(", "pid": 1, "tid": 2, "ts": )" << ts << "}";
        break;
      case 7:
        s << R"({"ph": "b", "cat": "io", "name": "read", "id": ")" << i % 4 << R"(", "pid": 1, "ts": )" << ts << "}";
        break;
      case 8:
        s << R"({"ph": "e", "cat": "io", "name": "read", "id": ")" << (i - 1) % 4 << R"(", "pid": 1, "ts": )" << ts
          << "}";
        break;
      case 9: s << R"({"ph": "E", "pid": 1, "tid": 1, "ts": )" << ts << "}"; break;
      case 10: s << R"({"ph": "X", "name": "bad", "pid": 1, "tid": 3, "ts": "x)" << i << R"(", "dur": 1})"; break;
      default:
        s << R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": )" << 100 + i % 7 << R"(, "args": {"name": "t)" << i
          << R"("}})";
        break;
    }
  }
  s << "\n], \"traceName\": \"mixed.json\", \"baseTimeNanoseconds\": 1700000000000000000}\n";
  return s.str();
}

TEST(ChromeJsonParallelTest, ChunkedParallelLoadEqualsSequential) {
  const std::string json = MixedTrace(6000);
  const std::string sequential = LoadAndDump(json, 1, uint64_t{1} << 30);
  ASSERT_GT(sequential.size(), 1000u);
  EXPECT_NE(sequential.find("flow 1 "), std::string::npos);  // launch links exist
  for (int threads : {1, 2, 3}) {
    for (uint64_t chunk : {uint64_t{512}, uint64_t{4096}, uint64_t{65536}}) {
      EXPECT_EQ(LoadAndDump(json, threads, chunk), sequential) << threads << " threads, chunk " << chunk;
    }
  }
}

TEST(ChromeJsonParallelTest, ArrayFormAndTruncatedInputsAgree) {
  std::string json = MixedTrace(3000);
  // Array form: the events alone.
  const size_t open = json.find('[', json.find("traceEvents"));
  const size_t close = json.rfind(']');
  const std::string array = json.substr(open, close - open + 1);
  const std::string truncated = json.substr(0, json.size() * 2 / 3);
  for (const std::string& input : {array, truncated, array.substr(0, array.size() / 2)}) {
    const std::string sequential = LoadAndDump(input, 1, uint64_t{1} << 30);
    EXPECT_EQ(LoadAndDump(input, 2, 1024), sequential);
    EXPECT_EQ(LoadAndDump(input, 1, 1024), sequential);
  }
}

// A mapped file (what `stepline FILE` loads) gives the same trace, whole or
// cut, and the loader drops the pages it has imported: at the end only the
// last chunks' pages of the file are resident (peak memory).
TEST(ChromeJsonParallelTest, MappedFileLoadsTheSameAndLeavesLittleOfItResident) {
  const std::string json = MixedTrace(20000);
  const std::string dir = ::testing::TempDir();
  for (const std::string& input : {json, json.substr(0, json.size() * 2 / 3)}) {
    const std::string sequential = LoadAndDump(input, 1, uint64_t{1} << 30);
    const std::string path = dir + "/stepline_mapped_load.json";
    std::ofstream(path, std::ios::binary).write(input.data(), static_cast<std::streamsize>(input.size()));
    auto mapped = OpenInput(path, nullptr);
    ASSERT_TRUE(mapped.ok()) << mapped.error().ToString();
    ASSERT_EQ(mapped->bytes.view(), input);  // every page touched before the load
    for (int threads : {1, 2}) {
      LoadOptions options;
      options.threads = threads;
      ChromeJsonTuning tuning;
      tuning.chunk_bytes = 16384;
      auto trace = LoadChromeJson(*mapped, path, options, nullptr, tuning);
      ASSERT_TRUE(trace.ok()) << trace.error().ToString();
      EXPECT_EQ(Dump(*trace), sequential) << threads << " threads";
      const auto resident = ::stepline::testing::MappingRssBytes(mapped->bytes.data());
      ASSERT_TRUE(resident.has_value());
      EXPECT_LT(*resident, input.size() / 4) << threads << " threads, " << input.size() << " bytes";
      ASSERT_EQ(mapped->bytes.view(), input);  // faulted back in, unchanged, for the next round
    }
    std::filesystem::remove(path);
  }
}

// LoadBytes owns its decompressed copy and lets the loader discard it behind
// the import: the trace is the same as from an input nobody discards.
TEST(ChromeJsonParallelTest, SingleReaderDecompressedInputLoadsTheSame) {
  const std::string json = MixedTrace(150000);  // ~12 MB: 1 MB chunks on two threads
  const std::string gz = Gzip(json);
  for (const std::string& input : {json, json.substr(0, json.size() * 2 / 3)}) {
    LoadOptions options;
    options.threads = 2;
    auto kept = DecodeBytes(input, "p.json", nullptr);
    ASSERT_TRUE(kept.ok());
    auto reference = LoadChromeJson(*kept, "p.json", options, nullptr);
    ASSERT_TRUE(reference.ok()) << reference.error().ToString();
    auto discarded = LoadBytes(input == json ? gz : input, "p.json", options);
    ASSERT_TRUE(discarded.ok()) << discarded.error().ToString();
    EXPECT_EQ(Dump(*discarded), Dump(*reference)) << input.size() << " bytes";
  }
}

TEST(ChromeJsonParallelTest, RealTracesLoadTheSameOnOneAndTwoThreads) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* path : {"hta/nccl_parser_config_nccl_data.json.gz", "catapult/multiple_input_latency.json",
                           "catapult/fuchsia_trace.json.gz"}) {
    auto input = OpenInput(::stepline::testing::SharedTracePath(path), nullptr);
    ASSERT_TRUE(input.ok()) << path;
    const std::string_view json = input->bytes.view();
    const std::string sequential = LoadAndDump(json, 1, uint64_t{1} << 30);
    EXPECT_EQ(LoadAndDump(json, 2, 256 << 10), sequential) << path;
  }
}

TEST(ChromeJsonParallelTest, ProgressReachesTheEndAndCancelStops) {
  const std::string json = MixedTrace(4000);
  auto input = DecodeBytes(json, "p.json", nullptr);
  ASSERT_TRUE(input.ok());
  LoadOptions options;
  options.threads = 2;
  ChromeJsonTuning tuning;
  tuning.chunk_bytes = 4096;
  LoadProgress progress;
  ASSERT_TRUE(LoadChromeJson(*input, "p.json", options, &progress, tuning).ok());
  EXPECT_EQ(progress.bytes_total.load(), json.size());
  EXPECT_EQ(progress.bytes_done.load(), json.size());
  LoadProgress cancelled;
  cancelled.cancel = true;
  auto r = LoadChromeJson(*input, "p.json", options, &cancelled, tuning);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled);
}

TEST(ChromeJsonParallelTest, CancelDuringTheLoadStopsIt) {
  const std::string json = MixedTrace(200000);
  auto input = DecodeBytes(json, "p.json", nullptr);
  ASSERT_TRUE(input.ok());
  for (int threads : {1, 2}) {
    LoadOptions options;
    options.threads = threads;
    ChromeJsonTuning tuning;
    tuning.chunk_bytes = 4096;  // thousands of chunks: cancel lands mid-way
    LoadProgress progress;
    std::thread ui([&] {
      while (progress.bytes_done.load() == 0) std::this_thread::yield();
      progress.cancel = true;
    });
    auto r = LoadChromeJson(*input, "p.json", options, &progress, tuning);
    ui.join();
    ASSERT_FALSE(r.ok()) << threads;
    EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled);
    EXPECT_LT(progress.bytes_done.load(), json.size());
  }
}

}  // namespace
}  // namespace stepline::loaders
