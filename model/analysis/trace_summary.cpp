// ComputeTraceSummary: one pass over the tables.
#include "model/analysis/trace_summary.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace stepline::analysis {

TraceSummary ComputeTraceSummary(const Trace& trace) {
  TraceSummary s;
  const SliceTable& slices = trace.slices();
  const TrackTable& tracks = trace.tracks();
  s.slices = slices.size();
  s.instants = trace.instants().size();
  for (std::string_view name : {"[memory]", "[OutOfMemory]", "MemoryAllocation", "MemoryDeallocation"}) {
    const StringId id = trace.strings().Find(name);
    if (id.is_none()) continue;
    s.memory_events += static_cast<uint64_t>(std::count(trace.instants().name().begin(), trace.instants().name().end(), id));
  }
  s.instants -= s.memory_events;
  s.counter_samples = trace.counters().size();
  s.flows = trace.flows().size();
  for (FlowKind k : trace.flows().kind()) s.launch_flows += k == FlowKind::kLaunch;
  s.span_ns = trace.span().duration_ns();
  for (size_t t = 0; t < tracks.size(); ++t) ++s.tracks_by_kind[static_cast<size_t>(tracks.kind(TrackId::FromIndex(t)))];

  std::set<int32_t> devices;
  for (size_t i = 0; i < slices.size(); ++i) {
    const GpuKind k = slices.gpu_kind()[i];
    if (k == GpuKind::kNone) continue;
    ++s.gpu_count[static_cast<size_t>(k)];
    s.gpu_ns[static_cast<size_t>(k)] += slices.dur_ns()[i];
    devices.insert(tracks.device_id(slices.track()[i]));
  }
  s.devices = devices.size();

  // Steps: ProfilerStep#N host slices, and XProf/TensorBoard "Steps" rows.
  const StringId steps_name = trace.strings().Find("Steps");
  std::set<StringId> derived_steps;
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    const auto& r = tracks.ranges(track);
    const bool is_steps_row =
        tracks.kind(track) == TrackKind::kGpuDerived && !steps_name.is_none() && tracks.name(track) == steps_name;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (is_steps_row) {
        derived_steps.insert(slices.name()[i]);
      } else if (tracks.kind(track) == TrackKind::kHostThread &&
                 trace.str(slices.name()[i]).starts_with("ProfilerStep#")) {
        // Newer Kineto repeats each step on the GPU row as gpu_user_annotation:
        // count the host marker only.
        ++s.steps;
      }
    }
  }
  s.steps += derived_steps.size();
  return s;
}

}  // namespace stepline::analysis
