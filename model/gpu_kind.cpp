// Names of the enums of the model that the CLI and reports print.
#include "model/gpu_kind.h"

#include "model/track_table.h"

namespace stepline {

std::string_view GpuKindName(GpuKind kind) {
  switch (kind) {
    case GpuKind::kNone: return "none";
    case GpuKind::kKernel: return "kernel";
    case GpuKind::kCollective: return "collective";
    case GpuKind::kMemcpyH2D: return "memcpy_h2d";
    case GpuKind::kMemcpyD2H: return "memcpy_d2h";
    case GpuKind::kMemcpyD2D: return "memcpy_d2d";
    case GpuKind::kMemcpyOther: return "memcpy_other";
    case GpuKind::kMemset: return "memset";
  }
  return "?";
}

std::string_view TrackKindName(TrackKind kind) {
  switch (kind) {
    case TrackKind::kHostThread: return "host_thread";
    case TrackKind::kGpuStream: return "gpu_stream";
    case TrackKind::kGpuDerived: return "gpu_derived";
    case TrackKind::kCounter: return "counter";
    case TrackKind::kAsync: return "async";
    case TrackKind::kMarkers: return "markers";
  }
  return "?";
}

}  // namespace stepline
