// ComputeReport on ~1 million slices (target: <= 300 ms; docs/performance.md). The traces
// come from the demo generator, so they look like real captures:
// host threads with nested ops and launch calls, launch flows, kernel args,
// copies, step markers. Run:
//   stepline_microbench --benchmark_filter=ComputeReport --benchmark_repetitions=5
//                       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "demo/demo_generator.h"
#include "model/analysis/report.h"

namespace stepline {
namespace {

constexpr size_t kTargetSlices = 1'000'000;

// The demo scenario, in the given style, with enough steps for ~1M slices
// (built once per process).
const Trace& MillionSliceTrace(const std::string& scenario, demo::DemoStyle style) {
  static std::map<std::pair<std::string, int>, Trace> cache;
  const auto key = std::make_pair(scenario, static_cast<int>(style));
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  demo::DemoOptions o;
  o.scenario = scenario;
  o.style = style;
  o.compute_truth = false;
  o.steps = 4;
  auto probe = demo::GenerateDemoTrace(o);
  const size_t per_step = probe.ok() ? probe->slices().size() / 5 : 1;
  o.steps = static_cast<int>(kTargetSlices / std::max<size_t>(per_step, 1));
  auto trace = demo::GenerateDemoTrace(o);
  return cache.emplace(key, trace.ok() ? std::move(trace.value()) : Trace()).first->second;
}

void RunReport(benchmark::State& state, const std::string& scenario, demo::DemoStyle style) {
  const Trace& trace = MillionSliceTrace(scenario, style);
  size_t gaps = 0;
  for (auto _ : state) {
    analysis::Report report = analysis::ComputeReport(trace);
    gaps = report.gaps.size();
    benchmark::DoNotOptimize(report);
  }
  state.counters["slices"] = static_cast<double>(trace.slices().size());
  state.counters["listed_gaps"] = static_cast<double>(gaps);
}

void BM_ComputeReport_SmallBatchPyTorch(benchmark::State& s) {
  RunReport(s, "small-batch", demo::DemoStyle::kPyTorch);
}
void BM_ComputeReport_SyncTensorFlow(benchmark::State& s) { RunReport(s, "sync", demo::DemoStyle::kTensorFlow); }
void BM_ComputeReport_BaselinePyTorch(benchmark::State& s) { RunReport(s, "baseline", demo::DemoStyle::kPyTorch); }

BENCHMARK(BM_ComputeReport_SmallBatchPyTorch)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ComputeReport_SyncTensorFlow)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_ComputeReport_BaselinePyTorch)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace stepline
