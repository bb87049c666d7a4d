// AnalysisData construction: the Report, plus the per-device gaps with ids.
#include "ui/analysis_data.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

namespace stepline::ui {
namespace {

// Recomputes what ComputeReport keeps only as names: the gaps with their
// SliceIds. Same inputs as the report (primary device's steps), so the causes
// agree; costs one more idle pass on the load thread.
void AddGaps(const Trace& trace, AnalysisData* a) {
  using namespace analysis;
  const std::vector<DeviceActivity> devices = ComputeDeviceActivity(trace);
  const int primary = PrimaryDeviceIndex(devices);
  StepOptions step_options;
  step_options.device_id = primary >= 0 ? devices[primary].device_id : -1;
  const StepSet steps = ComputeSteps(trace, step_options);
  const LaunchIndex launches = BuildLaunchIndex(trace);
  a->device_of_track.assign(trace.tracks().size(), -1);
  for (size_t d = 0; d < devices.size(); ++d) {
    for (TrackId t : devices[d].streams) a->device_of_track[t.index()] = static_cast<int32_t>(d);
    const uint32_t begin = static_cast<uint32_t>(a->gaps.size());
    for (IdleGap& g : ComputeIdleGaps(trace, devices[d], steps, IdleCauseTable::Default(), launches)) {
      if (!g.in_active_span) continue;
      a->gaps.push_back(std::move(g));
      a->gap_device.push_back(static_cast<uint32_t>(d));
    }
    a->device_gaps.emplace_back(begin, static_cast<uint32_t>(a->gaps.size()));
  }
}

void AddStepStats(AnalysisData* a) {
  const auto& steps = a->report.steps;
  if (steps.empty()) return;
  double sum = 0, sq = 0;
  for (const auto& s : steps) sum += static_cast<double>(s.dur_ns);
  const double mean = sum / static_cast<double>(steps.size());
  for (const auto& s : steps) sq += (static_cast<double>(s.dur_ns) - mean) * (static_cast<double>(s.dur_ns) - mean);
  a->step_mean_ns = static_cast<DurNs>(mean);
  a->step_std_ns = static_cast<DurNs>(std::sqrt(sq / static_cast<double>(steps.size())));
}

// The host event name blamed by the most listed gaps (an event is blamed at
// most once per gap, so counting events counts gaps).
void AddTopBlamed(AnalysisData* a) {
  struct Tally {
    uint64_t gaps = 0;
    DurNs overlap_ns = 0;
    int first = -1;
  };
  std::map<std::string_view, Tally> by_name;
  const auto& events = a->report.gap_events;
  for (size_t i = 0; i < events.size(); ++i) {
    Tally& t = by_name[events[i].name];
    if (t.first < 0) t.first = static_cast<int>(i);
    ++t.gaps;
    t.overlap_ns += events[i].overlap_ns;
  }
  for (const auto& [name, t] : by_name) {
    if (t.gaps > a->top_blamed_gaps || (t.gaps == a->top_blamed_gaps && t.overlap_ns > a->top_blamed_ns)) {
      a->top_blamed_gaps = t.gaps;
      a->top_blamed_ns = t.overlap_ns;
      a->top_blamed_event = t.first;
    }
  }
}

}  // namespace

AnalysisData ComputeAnalysisData(const Trace& trace) {
  AnalysisData a;
  a.report = analysis::ComputeReport(trace);
  AddGaps(trace, &a);
  AddStepStats(&a);
  AddTopBlamed(&a);
  for (const auto& op : a.report.ops) a.op_names.push_back(trace.strings().Find(op.name));
  for (const auto& k : a.report.kernels) a.kernel_names.push_back(trace.strings().Find(k.name));
  return a;
}

int32_t DeviceIndexOfId(const AnalysisData& a, int32_t device_id) {
  for (size_t d = 0; d < a.report.devices.size(); ++d) {
    if (a.report.devices[d].device_id == device_id) return static_cast<int32_t>(d);
  }
  return -1;
}

SliceId ArrowSource(const analysis::IdleGap& g) {
  return !g.cause_events.empty() ? g.cause_events.front().slice : g.launch;
}

std::pair<uint32_t, uint32_t> GapsInRange(const AnalysisData& a, uint32_t device, TimeRange range) {
  if (device >= a.device_gaps.size()) return {0, 0};
  const auto [begin, end] = a.device_gaps[device];
  const auto first = a.gaps.begin() + begin, last = a.gaps.begin() + end;
  // Gaps of one device are disjoint and sorted, so their ends are sorted too.
  auto lo = std::partition_point(first, last, [&](const analysis::IdleGap& g) { return g.end_ns <= range.start_ns; });
  auto hi = std::partition_point(lo, last, [&](const analysis::IdleGap& g) { return g.start_ns < range.end_ns; });
  return {static_cast<uint32_t>(lo - a.gaps.begin()), static_cast<uint32_t>(hi - a.gaps.begin())};
}

}  // namespace stepline::ui
