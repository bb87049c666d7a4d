// Naming conventions of the two GPU producers of Chrome JSON, on top of
// gpu_classify.h: PyTorch/Kineto categories (every version, any case) and
// TensorBoard / TF / JAX trace-viewer process and thread names
// (../shared/docs/trace-formats.md 2.4 and 2.6).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "loaders/gpu_classify.h"
#include "model/gpu_kind.h"
#include "model/string_pool.h"
#include "model/track_table.h"

namespace stepline::loaders {

// What a Kineto category says about its events.
struct CategoryTraits {
  KinetoCategory kind = KinetoCategory::kOther;
  // Events of this category live on a device row (pid = device, tid =
  // stream): kernels, copies, memsets, GPU annotations, and the cuda_sync /
  // cuda_event rows and MTIA device queues, which hold no GpuKind activity.
  bool device_side = false;
};
CategoryTraits ClassifyCategory(std::string_view category);

// ClassifyCategory once per interned category: a trace holds a few
// categories and millions of events (the JSON and the Perfetto importers).
class CategoryTraitsCache {
 public:
  CategoryTraits Get(StringId category, const StringPool& strings);

 private:
  std::vector<uint8_t> cached_;  // by category StringId: traits + 1; 0 = not classified yet
};

// GpuKind of a device-side Kineto event from its category and name.
GpuKind KinetoGpuKind(KinetoCategory kind, std::string_view name);

// Flow categories that link a launch call to its GPU activity: "ac2g"
// (current), "async_cpu_to_gpu" / "async_gpu" (2022), "async" with name
// "launch" (2020-2021).
bool IsLaunchFlow(std::string_view category, std::string_view name);

// "/device:GPU:3" anywhere in a TensorBoard process name (hosts prefix it) -> 3.
int32_t DeviceFromProcessName(std::string_view process_name);
// Kineto process_labels "GPU 3" (possibly among comma-separated labels) -> 3.
int32_t DeviceFromProcessLabels(std::string_view labels);

// A TensorBoard thread of a device process: "Stream #14(Compute)" is a
// stream; "XLA Ops", "Steps", "TensorFlow Name Scope - from #14", ... are
// rows the profiler derived. Other names: kHostThread (not a device row).
TrackKind TensorBoardRowKind(std::string_view thread_name);

// GpuKind of an event on a TensorBoard stream row, from its name
// ("MemcpyH2D", "Memset 1", a kernel name, ...).
GpuKind TensorBoardGpuKind(std::string_view name);
// Direction from an XSpace "memcpy_details" value ("kind_src:host
// kind_dst:device size:..."); kNone when it names no kinds.
GpuKind MemcpyDetailsKind(std::string_view details);

}  // namespace stepline::loaders
