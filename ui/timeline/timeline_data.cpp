// TimelineData construction.
#include "ui/timeline/timeline_data.h"

#include <algorithm>
#include <atomic>

namespace stepline::ui {
namespace {

uint64_t NextGeneration() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

TimelineData::TimelineData(std::shared_ptr<const Trace> t)
    : trace(std::move(t)),
      generation(NextGeneration()),
      depths(*trace),
      copies(*trace),
      flow_window(*trace),
      counter_max(trace->counters().value()),
      analysis(ComputeAnalysisData(*trace)),
      gap_index(analysis),
      memory(BuildMemorySeries(analysis.memory_table, analysis.memory)) {
  for (const analysis::DeviceAnalysis& d : analysis.devices) has_gpu |= !d.activity.kernel_busy.empty();
  counter_range.assign(trace->tracks().size(), {0.0, 0.0});
  const CounterTable& counters = trace->counters();
  for (size_t i = 0; i < counters.size(); ++i) {
    auto& [lo, hi] = counter_range[counters.track()[i].index()];
    lo = std::min(lo, counters.value()[i]);
    hi = std::max(hi, counters.value()[i]);
  }
  const auto to = trace->flows().to();
  flows_by_to.resize(to.size());
  for (uint32_t i = 0; i < to.size(); ++i) flows_by_to[i] = i;
  std::stable_sort(flows_by_to.begin(), flows_by_to.end(), [&](uint32_t a, uint32_t b) { return to[a] < to[b]; });
}

}  // namespace stepline::ui
