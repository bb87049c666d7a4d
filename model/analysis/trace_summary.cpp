// ComputeTraceSummary: one pass over the tables, plus the steps.
#include "model/analysis/trace_summary.h"

#include <map>

#include "model/analysis/trace_analysis.h"

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

  std::map<int32_t, TraceSummary::Device> devices;
  for (size_t t = 0; t < tracks.size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (tracks.kind(track) == TrackKind::kGpuStream) ++devices[tracks.device_id(track)].streams;
  }
  uint64_t with_gpu_slices = 0;
  for (size_t i = 0; i < slices.size(); ++i) {
    const GpuKind k = slices.gpu_kind()[i];
    if (k == GpuKind::kNone) continue;
    ++s.gpu_count[static_cast<size_t>(k)];
    s.gpu_ns[static_cast<size_t>(k)] += slices.dur_ns()[i];
    TraceSummary::Device& d = devices[tracks.device_id(slices.track()[i])];
    with_gpu_slices += d.gpu_count == std::array<uint64_t, kGpuKindCount>{};
    ++d.gpu_count[static_cast<size_t>(k)];
    d.gpu_ns[static_cast<size_t>(k)] += slices.dur_ns()[i];
  }
  s.devices = with_gpu_slices;
  for (auto& [id, d] : devices) {
    d.device_id = id;
    s.device_list.push_back(d);
  }
  s.steps = ComputeTraceSteps(trace).steps.size();
  return s;
}

}  // namespace stepline::analysis
