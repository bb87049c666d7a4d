// Naming conventions of XSpace producers (trace-formats.md 1.5-1.9): what a
// plane is from its name, what a line is from its plane and name, what a GPU
// stream event does, and which host events mark steps. Pure functions of
// names and numbers; no protobuf, no model.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/gpu_kind.h"

namespace stepline::loaders::xspace {

enum class PlaneKind : uint8_t {
  kHostCpu,       // "/host:CPU": host threads (TraceMe, CUPTI API, python tracer)
  kGpu,           // "/device:GPU:<n>": CUDA / ROCm streams and derived lines
  kTpu,           // "/device:TPU:<n>" (and its SparseCore planes): XLA lines
  kTaskEnv,       // "Task Environment": profile start/stop wall clock
  kMetadataOnly,  // "/host:metadata": XLA programs (Hlo Proto blobs), no timeline
  kOther,         // custom devices, "/host:tfstreamz", "#Chip...", ...: lines become host-style tracks
};

struct PlaneClass {
  PlaneKind kind = PlaneKind::kOther;
  int32_t device_id = -1;  // the <n> of GPU/TPU planes, else -1
};
// `plane_id` is XPlane.id, used as the ordinal when the name has none.
PlaneClass ClassifyPlane(std::string_view name, int64_t plane_id);

enum class LineKind : uint8_t {
  kHost,      // a host thread (host planes and other planes)
  kStream,    // a GPU stream ("Stream #14(Compute)", "CUPTI overhead", ...)
  kDerived,   // profiler-derived row: Steps, Framework/TensorFlow Ops, XLA Ops, ...
  kCounters,  // "_counters_": one counter series per event-metadata name
};
LineKind ClassifyLine(PlaneKind plane, std::string_view line_name, int64_t line_id);

// True for derived-line names, with or without the " - from #<stream>" suffix.
bool IsDerivedLineName(std::string_view name);
// True when the name, minus any " - from #N" suffix, is exactly "Steps".
bool IsStepsLineName(std::string_view name);
// True when the name, minus any " - from #N" suffix, is exactly "XLA Ops": the
// device activity of a TPU (or of a GPU plane that has only XLA lines).
bool IsXlaOpsLineName(std::string_view name);

// The `kind_src:` / `kind_dst:` words of a memcpy_details string
// ("kind_src:host kind_dst:device size:4 dest:0 async:1"); empty when absent.
struct MemcpyKinds {
  std::string_view src, dst;
};
MemcpyKinds ParseMemcpyDetails(std::string_view details);

// What a GPU stream event does. `memcpy_details` / `has_memset_details` come
// from its stats (empty / false when absent). Memory bookkeeping (alloc, free,
// residency) and CUPTI overhead rows are kNone: they are not device work.
struct DeviceEventFacts {
  std::string_view name;
  std::string_view line_name;
  std::string_view memcpy_details;
  bool has_memcpy_details = false;
  bool has_memset_details = false;
  bool has_memory_details = false;  // memalloc_details, MemFree_details, MemoryResidency_details
};
GpuKind ClassifyDeviceEvent(const DeviceEventFacts& facts);

// Host step markers (XProf step analysis): names starting with "train",
// "test" or "TraceContext" that contain no '/'.
bool IsHostStepMarkerName(std::string_view name);

}  // namespace stepline::loaders::xspace
