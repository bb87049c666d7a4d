// The timeline Memory row's per-pixel columns for 1k and 1M
// samples at a 2000-pixel width, whole trace in view: the range-max index
// makes both cost about the same. Run:
//   stepline_microbench --benchmark_filter=MemoryRowColumns
#include <benchmark/benchmark.h>

#include <vector>

#include "ui/memory/memory_series.h"
#include "ui/timeline/sampled_search.h"

namespace stepline {
namespace {

void BM_MemoryRowColumns(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<TimeNs> ts(n);
  std::vector<double> values(n);
  for (size_t i = 0; i < n; ++i) {
    ts[i] = static_cast<TimeNs>(i) * 1000;
    values[i] = static_cast<double>((i * 7919) % 100'003);
  }
  const ui::RangeArgMax<double> max(values);
  const std::vector<TimeNs> samples = ui::SampleKeys(n, [&](size_t i) { return ts[i]; });
  ui::Viewport viewport;
  viewport.visible = {0, static_cast<TimeNs>(n) * 1000};
  viewport.width_px = 2000;
  std::vector<float> columns;
  for (auto _ : state) {
    ui::BuildStepColumns(ts, samples, values, max, viewport, 2000, &columns);
    benchmark::DoNotOptimize(columns.data());
  }
}

BENCHMARK(BM_MemoryRowColumns)->Arg(1'000)->Arg(1'000'000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace stepline
