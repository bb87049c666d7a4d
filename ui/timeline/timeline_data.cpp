// TimelineData construction and the overview's busy bins.
#include "ui/timeline/timeline_data.h"

#include <algorithm>

namespace stepline::ui {

std::vector<float> ComputeBusyBins(std::vector<TimeRange> intervals, TimeRange range, size_t bins) {
  std::vector<float> out(bins, 0.f);
  if (range.empty() || bins == 0) return out;
  std::sort(intervals.begin(), intervals.end(),
            [](const TimeRange& a, const TimeRange& b) { return a.start_ns < b.start_ns; });
  const double bin_ns = static_cast<double>(range.duration_ns()) / static_cast<double>(bins);
  auto add = [&](TimeNs s, TimeNs e) {  // a disjoint busy interval
    s = std::max(s, range.start_ns);
    e = std::min(e, range.end_ns);
    if (e <= s) return;
    size_t b0 = static_cast<size_t>(static_cast<double>(s - range.start_ns) / bin_ns);
    const size_t b1 = std::min(bins - 1, static_cast<size_t>(static_cast<double>(e - 1 - range.start_ns) / bin_ns));
    for (size_t b = std::min(b0, bins - 1); b <= b1; ++b) {
      const double lo = static_cast<double>(range.start_ns) + static_cast<double>(b) * bin_ns;
      const double hi = lo + bin_ns;
      const double overlap = std::min<double>(static_cast<double>(e), hi) - std::max<double>(static_cast<double>(s), lo);
      if (overlap > 0) out[b] += static_cast<float>(overlap / bin_ns);
    }
  };
  // Merge overlapping intervals so concurrent kernels count once.
  TimeNs cur_s = 0, cur_e = 0;
  bool open = false;
  for (const TimeRange& r : intervals) {
    if (open && r.start_ns <= cur_e) {
      cur_e = std::max(cur_e, r.end_ns);
      continue;
    }
    if (open) add(cur_s, cur_e);
    cur_s = r.start_ns;
    cur_e = r.end_ns;
    open = true;
  }
  if (open) add(cur_s, cur_e);
  for (float& f : out) f = std::min(f, 1.f);
  return out;
}

TimelineData::TimelineData(std::shared_ptr<const Trace> t)
    : trace(std::move(t)),
      depths(*trace),
      copies(*trace),
      flow_window(*trace),
      counter_max(trace->counters().value()),
      analysis(ComputeAnalysisData(*trace)),
      gap_index(analysis),
      memory(BuildMemorySeries(BuildMemoryTable(*trace))) {
  const SliceTable& s = trace->slices();
  std::vector<TimeRange> kernels;
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsKernelLike(s.gpu_kind()[i])) kernels.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
  }
  has_gpu = !kernels.empty();
  gpu_busy = ComputeBusyBins(std::move(kernels), trace->span(), kOverviewBins);
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
