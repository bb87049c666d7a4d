// AnalyzeRanks on synthetic rank summaries: the merge step of
// `stepline ranks --from-reports`, at 64 to 4,096 ranks of 400 all-reduces.
// Built, never run in CI: `build/tests/bench/stepline_microbench --benchmark_filter=Ranks`.
#include <benchmark/benchmark.h>

#include "model/analysis/ranks_analysis.h"

namespace stepline::analysis {
namespace {

std::vector<RankSummary> MakeRanks(int ranks, int collectives) {
  std::vector<RankSummary> out(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    RankSummary& s = out[static_cast<size_t>(r)];
    s.rank = r;
    s.world_size = ranks;
    s.path = "rank" + std::to_string(r);
    s.steps = collectives;
    s.step_total_ns = int64_t{collectives} * 100'000'000;
    s.span = {0, s.step_total_ns};
    At(s.breakdown_total, TimeCategory::kCollective) = int64_t{collectives} * 10'000'000;
    for (int c = 0; c < collectives; ++c) {
      CollectiveArrival a;
      a.name = "AllReduce";
      a.ordinal = static_cast<uint32_t>(c);
      a.step = c;
      const TimeNs base = int64_t{c} * 100'000'000 + int64_t{r} * 7'000'000;
      a.start_ns = base + 50'000'000 + (r == ranks / 2 ? 8'000'000 : (r * 37) % 1000 * 1000);
      a.end_ns = base + 60'000'000;
      s.collectives.push_back(a);
    }
  }
  return out;
}

void BM_AnalyzeRanks(benchmark::State& state) {
  const std::vector<RankSummary> ranks = MakeRanks(static_cast<int>(state.range(0)), 400);
  for (auto _ : state) {
    RanksAnalysis a = AnalyzeRanks(ranks);
    benchmark::DoNotOptimize(a.straggler);
  }
  state.counters["arrivals"] = static_cast<double>(state.range(0) * 400);
}
BENCHMARK(BM_AnalyzeRanks)->Arg(64)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace stepline::analysis
