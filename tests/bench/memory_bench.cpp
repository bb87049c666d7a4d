// Memory analysis on 1 million memory events: BuildMemoryTable
// (read the instants, match allocs to frees by address, find each alloc's
// op) plus ComputeMemoryAnalysis (peak, live at peak, growth over 100 steps).
// A Kineto-shaped synthetic trace: one thread of 10k ops, each allocating 50
// tensors and freeing them 50 events later. Run:
//   stepline_microbench --benchmark_filter=Memory --benchmark_repetitions=5
//                       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <vector>

#include "loaders/trace_builder.h"
#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"

namespace stepline {
namespace {

constexpr int kOps = 10'000, kEventsPerOp = 100;  // 1M events: 500k allocs, 500k frees

const Trace& MillionMemoryEventTrace() {
  static const Trace trace = [] {
    loaders::TraceBuilder b("bench");
    const TrackId thread = b.ThreadTrack(1, 1);
    const StringId memory = b.Intern("[memory]"), cat = b.Intern("cpu_instant_event"), op = b.Intern("aten::empty");
    const StringId k_res = b.Intern("Total Reserved"), k_alloc = b.Intern("Total Allocated"), k_bytes = b.Intern("Bytes"),
                   k_addr = b.Intern("Addr"), k_id = b.Intern("Device Id"), k_type = b.Intern("Device Type");
    int64_t level = 1'000'000'000;
    for (int o = 0; o < kOps; ++o) {
      const TimeNs op_start = int64_t{o} * 100'000;
      b.AddSlice({thread, op_start, 90'000, op, cat, ArgSetId(), GpuKind::kNone});
      for (int e = 0; e < kEventsPerOp; ++e) {
        const bool alloc = e < kEventsPerOp / 2;
        const int64_t bytes = alloc ? 4096 * (1 + e) : -4096 * (1 + e - kEventsPerOp / 2);
        level += bytes;
        const uint64_t addr = 0x7f0000000000 + static_cast<uint64_t>(o % 2) * 0x100000000 +
                              static_cast<uint64_t>(alloc ? e : e - kEventsPerOp / 2) * 0x100000;
        const Arg args[] = {{k_res, ArgValue::Int(level + (1 << 30))}, {k_alloc, ArgValue::Int(level)},
                            {k_bytes, ArgValue::Int(bytes)},          {k_addr, ArgValue::Int(int64_t(addr))},
                            {k_id, ArgValue::Int(0)},                 {k_type, ArgValue::Int(1)}};
        b.AddInstant({thread, op_start + 100 + e * 800, memory, cat, b.AddArgs(args)});
      }
    }
    return b.Finish();
  }();
  return trace;
}

void BM_MemoryAnalysis_1M(benchmark::State& state) {
  const Trace& trace = MillionMemoryEventTrace();
  std::vector<analysis::Step> steps;
  for (int s = 0; s < 100; ++s) steps.push_back({"step", int64_t{s} * 10'000'000, 10'000'000, SliceId()});
  size_t allocations = 0;
  for (auto _ : state) {
    const MemoryTable table = BuildMemoryTable(trace);
    const analysis::MemoryAnalysis a = analysis::ComputeMemoryAnalysis(table, steps);
    allocations = table.pools.empty() ? 0 : table.pools[0].allocations.size();
    benchmark::DoNotOptimize(a);
  }
  state.counters["memory_events"] = static_cast<double>(trace.instants().size());
  state.counters["allocations"] = static_cast<double>(allocations);
}

BENCHMARK(BM_MemoryAnalysis_1M)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace stepline
