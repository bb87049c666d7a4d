// TimelineData construction: the indices (two threads), the analysis, and
// joining the two.
#include "ui/timeline/timeline_data.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace stepline::ui {
namespace {

uint64_t NextGeneration() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

std::vector<uint32_t> FlowsByTo(const Trace& trace) {
  // A stable sort of the rows by `to`: the flows come nearly in `to` order
  // already, which merge sort runs through fast (0.06 s for the 10M-slice
  // demo's 3.9M flows; std::sort on (to, row) pairs took 0.24 s).
  const auto to = trace.flows().to();
  std::vector<uint32_t> rows(to.size());
  for (uint32_t i = 0; i < to.size(); ++i) rows[i] = i;
  std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return to[a] < to[b]; });
  return rows;
}

std::vector<std::pair<double, double>> CounterRanges(const Trace& trace) {
  std::vector<std::pair<double, double>> ranges(trace.tracks().size(), {0.0, 0.0});
  const CounterTable& counters = trace.counters();
  for (size_t i = 0; i < counters.size(); ++i) {
    auto& [lo, hi] = ranges[counters.track()[i].index()];
    lo = std::min(lo, counters.value()[i]);
    hi = std::max(hi, counters.value()[i]);
  }
  return ranges;
}

}  // namespace

// The sort of 3.9M flows and the flow window are the slowest parts on the
// 10M-slice demo; the sort runs on its own thread meanwhile.
TimelineIndices::TimelineIndices(const Trace& trace)
    : TimelineIndices(trace, std::async(std::launch::async, [&trace] { return FlowsByTo(trace); })) {}

TimelineIndices::TimelineIndices(const Trace& trace, std::future<std::vector<uint32_t>> sorted)
    : depths(trace),
      copies(trace),
      flow_window(trace),
      counter_range(CounterRanges(trace)),
      counter_max(trace.counters().value()),
      flows_by_to(sorted.get()) {}

TimelineAnalysis::TimelineAnalysis(const Trace& trace, const std::atomic<bool>* cancel)
    : analysis(ComputeAnalysisData(trace, cancel)),
      gap_index(analysis),
      memory(BuildMemorySeries(analysis.memory_table, analysis.memory)) {
  for (const analysis::DeviceAnalysis& d : analysis.devices) has_gpu |= !d.activity.kernel_busy.empty();
}

TimelineData::TimelineData(std::shared_ptr<const Trace> t)
    : TimelineData(t, std::make_shared<const TimelineIndices>(*t), true, TimelineAnalysis(*t)) {}

TimelineData::TimelineData(std::shared_ptr<const Trace> t, std::shared_ptr<const TimelineIndices> i)
    : TimelineData(std::move(t), std::move(i), false, TimelineAnalysis()) {}

TimelineData::TimelineData(const TimelineData& pending, TimelineAnalysis&& done)
    : TimelineData(pending.trace, pending.indices, true, std::move(done)) {}

TimelineData::TimelineData(std::shared_ptr<const Trace> t, std::shared_ptr<const TimelineIndices> i, bool ready,
                           TimelineAnalysis&& done)
    : trace(std::move(t)),
      generation(NextGeneration()),
      indices(std::move(i)),
      depths(indices->depths),
      copies(indices->copies),
      flows_by_to(indices->flows_by_to),
      flow_window(indices->flow_window),
      counter_range(indices->counter_range),
      counter_max(indices->counter_max),
      analysis_ready(ready),
      has_gpu(done.has_gpu),
      analysis(std::move(done.analysis)),
      gap_index(std::move(done.gap_index)),
      memory(std::move(done.memory)) {}

}  // namespace stepline::ui
