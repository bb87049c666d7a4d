// TimelineData construction: the indices (two threads), the flows, the
// analysis, and joining the two.
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

// The copy rows (a pass over every slice) overlap the depth index; the flows
// (the slowest part: 0.4 to 0.6 s for the 10M-slice demo on a busy machine)
// are left to BuildFlows when the first frame must not wait for them.
TimelineIndices::TimelineIndices(const Trace& trace, Flows flows)
    : TimelineIndices(trace, flows, std::async(std::launch::async, [&trace] { return CopyRows(trace); })) {}

TimelineIndices::TimelineIndices(const Trace& trace, Flows flows, std::future<CopyRows> copy_rows)
    : depths(trace),
      copies(copy_rows.get()),
      counter_range(CounterRanges(trace)),
      counter_max(trace.counters().value()) {
  if (flows == Flows::kNow) BuildFlows(trace);
}

void TimelineIndices::BuildFlows(const Trace& trace) const {
  if (flows_.get() == nullptr) flows_.Publish(std::make_unique<const FlowIndex>(trace));
}

TimelineAnalysis::TimelineAnalysis(const Trace& trace, const std::atomic<bool>* cancel,
                                   const analysis::EfficiencyOptions& efficiency_options)
    : efficiency(efficiency_options),
      analysis(ComputeAnalysisData(trace, cancel, efficiency_options)),
      gap_index(analysis),
      memory(BuildMemorySeries(analysis.memory_table, analysis.memory)) {
  for (const analysis::DeviceAnalysis& d : analysis.devices) has_gpu |= !d.activity.kernel_busy.empty();
}

TimelineData::TimelineData(std::shared_ptr<const Trace> t, const analysis::EfficiencyOptions& efficiency)
    : TimelineData(t, std::make_shared<const TimelineIndices>(*t), true, TimelineAnalysis(*t, nullptr, efficiency)) {}

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
      counter_range(indices->counter_range),
      counter_max(indices->counter_max),
      analysis_ready(ready),
      efficiency(done.efficiency),
      has_gpu(done.has_gpu),
      analysis(std::move(done.analysis)),
      gap_index(std::move(done.gap_index)),
      memory(std::move(done.memory)) {}

}  // namespace stepline::ui
