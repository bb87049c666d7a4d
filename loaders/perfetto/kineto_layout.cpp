// Kineto's Perfetto layout onto the model (see kineto_layout.h).
#include "loaders/perfetto/kineto_layout.h"

namespace stepline::loaders::perfetto {

CategoryTraits KinetoLayout::Traits(StringId category) {
  return traits_cache_.Get(category, builder_->trace().strings());
}

void KinetoLayout::ClassifyTracks() {
  Trace& trace = builder_->trace();
  SliceTable& slices = trace.mutable_slices();
  const TrackTable& tracks = trace.tracks();
  std::vector<uint8_t> has_device_events(tracks.size(), 0);
  for (size_t i = 0; i < slices.size(); ++i) {
    const CategoryTraits traits = Traits(slices.category()[i]);
    if (!traits.device_side) continue;
    const SliceId s = SliceId::FromIndex(i);
    slices.set_gpu_kind(s, KinetoGpuKind(traits.kind, trace.strings().Get(slices.name()[i])));
    has_device_events[slices.track()[i].index()] = 1;
  }
  const ProcessTable& processes = trace.processes();
  for (size_t i = 0; i < tracks.size(); ++i) {
    const TrackId t = TrackId::FromIndex(i);
    if (!has_device_events[i] || tracks.kind(t) != TrackKind::kHostThread) continue;
    const ProcessId p = tracks.process(t);
    const int64_t pid = processes.pid(p);
    int32_t device = processes.device_id(p);
    // The process Kineto names "GPU N" is device N; "GPU N" is also the
    // process label its JSON gives, read by the same function.
    if (device < 0) device = DeviceFromProcessLabels(trace.strings().Get(processes.name(p)));
    if (device < 0 && pid >= 0 && pid <= INT32_MAX) device = static_cast<int32_t>(pid);
    if (device >= 0) builder_->SetProcessDevice(pid, device);
    builder_->SetTrackKind(t, TrackKind::kGpuStream, device);
    ++gpu_streams_;
  }
}

bool KinetoLayout::TakeLaunchFlow(uint64_t flow_id, SliceId slice) {
  if (gpu_streams_ == 0) return false;  // not a Kineto trace: flows stay arrows
  const Trace& trace = builder_->trace();
  const CategoryTraits traits = Traits(trace.slices().category()[slice.index()]);
  const TrackKind kind = trace.tracks().kind(trace.slices().track()[slice.index()]);
  if (kind == TrackKind::kGpuStream && traits.device_side) {
    builder_->NoteDeviceActivity(flow_id, slice);
    return true;
  }
  if (kind != TrackKind::kGpuStream && traits.kind == KinetoCategory::kRuntime) {
    builder_->NoteLaunch(flow_id, slice);
    return true;
  }
  return false;
}

}  // namespace stepline::loaders::perfetto
