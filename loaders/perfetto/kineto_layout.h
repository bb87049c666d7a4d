// Kineto's Perfetto layout: PyTorch's profiler can write its trace as
// Perfetto TrackEvents instead of Chrome JSON (a .pftrace / .pb / .pb.gz).
// The events are the JSON trace's, laid out as Perfetto tracks:
//   a process track per pid, a thread track per CPU thread;
//   a process "GPU N" with a thread "stream S" per CUDA stream;
//   each event a SLICE_BEGIN / SLICE_END pair (or an INSTANT) with the Kineto
//   category (kernel, gpu_memcpy, cuda_runtime, cpu_op, ...) as its category
//   and every arg as a debug annotation;
//   the correlation id as a flow id on both the runtime call and the GPU op.
// KinetoLayout maps that onto the model the way the JSON loader maps the
// same trace (loaders/chrome_json/event_importer_finish.cpp): a thread track
// holding device-side categories is a GPU stream of its process's device
// ("GPU N" names N, else the pid, as Kineto JSON's pid is the device);
// device slices get their GpuKind from category and name; and a flow id
// shared by a runtime call on a host thread and a GPU op on a stream is a
// launch link (TraceBuilder::NoteLaunch / NoteDeviceActivity), not an
// arrow between two arbitrary slices. Any other Perfetto trace holds none of
// these categories and is left as it was.
#pragma once

#include <cstdint>
#include <vector>

#include "loaders/chrome_json/kineto_conventions.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::perfetto {

class KinetoLayout {
 public:
  explicit KinetoLayout(TraceBuilder* builder) : builder_(builder) {}

  // Classifies every slice by its category and turns the thread tracks that
  // hold device-side ones into GPU streams. Call once, after the last event.
  void ClassifyTracks();
  // After ClassifyTracks: notes `slice`'s flow id as a launch (a runtime call
  // on a host track) or a device activity (a device-side slice on a GPU
  // stream) and returns true; false when the flow is an ordinary arrow.
  bool TakeLaunchFlow(uint64_t flow_id, SliceId slice);

  size_t gpu_streams() const { return gpu_streams_; }

 private:
  CategoryTraits Traits(StringId category);

  TraceBuilder* builder_;
  CategoryTraitsCache traits_cache_;
  size_t gpu_streams_ = 0;
};

}  // namespace stepline::loaders::perfetto
