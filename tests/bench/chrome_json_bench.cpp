// Chrome JSON load throughput: decompressed JSON in memory -> finalized Trace.
// Input: $STEPLINE_BENCH_JSON (any .json / .json.gz / .json.zst the loaders
// read, decompressed once before timing), else a generated 64 MB Kineto-like
// trace. Example (one line):
//   STEPLINE_BENCH_JSON=/tmp/df.json stepline_microbench --benchmark_filter=ChromeJson --benchmark_repetitions=5
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/chrome_json/event_tokenizer.h"
#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/parse_floor.h"

namespace stepline::loaders {
namespace {

// cpu_op / cuda_runtime / kernel triples with ac2g flows, ~250 bytes per event.
std::string GenerateKinetoJson(size_t min_bytes) {
  std::string s = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "A100"}], "traceEvents": [)";
  s.reserve(min_bytes + 4096);
  for (int64_t i = 0; s.size() < min_bytes; ++i) {
    const std::string ts = std::to_string(1700000000000000 + i * 20);
    const std::string corr = std::to_string(i);
    s += "\n  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op" + std::to_string(i % 97) +
         "\", \"pid\": 100, \"tid\": 101, \"ts\": " + ts + ".125, \"dur\": 15.5, \"args\": {\"External id\": " + corr +
         ", \"Input Dims\": [[64, 128], [128]], \"Ev Idx\": " + corr + "}},";
    s += "\n  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 100, \"tid\": 101, "
         "\"ts\": " +
         ts + ".250, \"dur\": 4, \"args\": {\"cbid\": 211, \"correlation\": " + corr + "}},";
    s += "\n  {\"ph\": \"s\", \"id\": " + corr + ", \"pid\": 100, \"tid\": 101, \"ts\": " + ts +
         ".250, \"cat\": \"ac2g\", \"name\": \"ac2g\"},";
    s += "\n  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void gemm_kernel<" + std::to_string(i % 13) +
         ">(float*)\", \"pid\": 0, \"tid\": 7, \"ts\": " + ts +
         ".900, \"dur\": 8.25, \"args\": {\"device\": 0, "
         "\"stream\": 7, \"correlation\": " +
         corr + ", \"grid\": [80, 1, 1], \"block\": [256, 1, 1]}},";
    s += "\n  {\"ph\": \"f\", \"id\": " + corr + ", \"pid\": 0, \"tid\": 7, \"ts\": " + ts +
         ".900, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"},";
  }
  s.pop_back();  // the last comma
  s += "\n], \"traceName\": \"generated.json\"}\n";
  return s;
}

const DecodedInput& Input() {
  static const DecodedInput input = [] {
    const char* path = std::getenv("STEPLINE_BENCH_JSON");
    auto decoded = path != nullptr && *path ? OpenInput(path, nullptr)
                                            : DecodeBytes(GenerateKinetoJson(64u << 20), "generated.json", nullptr);
    if (!decoded.ok()) {
      std::fprintf(stderr, "cannot read the benchmark input: %s\n", decoded.error().ToString().c_str());
      std::abort();
    }
    return std::move(decoded).value();
  }();
  return input;
}

void BM_ChromeJsonLoad(benchmark::State& state) {
  const DecodedInput& input = Input();
  LoadOptions options;
  options.threads = static_cast<int>(state.range(0));
  options.keep_args = state.range(1) != 0;
  size_t slices = 0;
  for (auto _ : state) {
    auto trace = LoadChromeJson(input, "bench.json", options, nullptr);
    if (!trace.ok()) {
      state.SkipWithError(trace.error().ToString().c_str());
      return;
    }
    slices = trace->slices().size();
    benchmark::DoNotOptimize(slices);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * input.bytes.size()));
  state.counters["slices"] = static_cast<double>(slices);
}
BENCHMARK(BM_ChromeJsonLoad)
    ->ArgNames({"threads", "args"})
    ->Args({1, 1})
    ->Args({2, 1})
    ->Args({2, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The tokenizer alone (the fast scanner, the walk where it gives up) on one
// thread, chunk after chunk of the loader's 4 MB plan, against the parse
// floor on one thread over the same chunks: the tokenizer's share of the
// floor, without the import, the second thread or the model's page faults.
// This VM's speed still drifts by tens of percent within a run, so compare
// medians of alternated runs, and instruction counts (callgrind).
//   STEPLINE_BENCH_JSON=/tmp/d413.json stepline_microbench --benchmark_filter='Tokenize|Floor'
//   --benchmark_repetitions=5
void BM_TokenizeChunks(benchmark::State& state) {
  const std::string_view json = Input().bytes.view();
  const std::vector<ChunkSpec> plan = PlanSpeculativeChunks(json, uint64_t{4} << 20);
  EventTokenizer tokenizer(/*keep_args=*/true);
  RawEventBatch batch;
  size_t events = 0;
  for (auto _ : state) {
    events = 0;
    for (const ChunkSpec& spec : plan) {
      batch.Clear();
      if (!tokenizer.Tokenize(spec, json, &batch).ok) {
        state.SkipWithError("a chunk failed to tokenize");
        return;
      }
      events += batch.events.size();
    }
    benchmark::DoNotOptimize(events);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
  state.counters["events"] = static_cast<double>(events);
  state.counters["fast_chunks"] = static_cast<double>(tokenizer.fast_chunks());
}
BENCHMARK(BM_TokenizeChunks)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ParseFloorOneThread(benchmark::State& state) {
  const std::string_view json = Input().bytes.view();
  for (auto _ : state) {
    const auto ms = MeasureParseFloorMs(json, 1);
    if (!ms) {
      state.SkipWithError("the parse floor failed");
      return;
    }
    benchmark::DoNotOptimize(*ms);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * json.size()));
}
BENCHMARK(BM_ParseFloorOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace stepline::loaders
