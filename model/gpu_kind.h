// What a GPU-side slice does. Loaders classify it once (from Kineto
// categories, XSpace line/event names, memcpy details); analyses only read it.
#pragma once

#include <cstdint>
#include <string_view>

namespace stepline {

enum class GpuKind : uint8_t {
  kNone = 0,       // not a GPU activity (host slice, annotation, derived row)
  kKernel,         // compute kernel
  kCollective,     // communication kernel (NCCL / RCCL / collective library)
  kMemcpyH2D,      // host -> device copy
  kMemcpyD2H,      // device -> host copy
  kMemcpyD2D,      // device -> device (same device)
  kMemcpyOther,    // peer-to-peer, unknown direction, ...
  kMemset,         // memset on device memory
};
inline constexpr int kGpuKindCount = 8;

std::string_view GpuKindName(GpuKind kind);  // "kernel", "memcpy_h2d", ...
inline bool IsKernelLike(GpuKind k) { return k == GpuKind::kKernel || k == GpuKind::kCollective; }
inline bool IsMemcpy(GpuKind k) {
  return k == GpuKind::kMemcpyH2D || k == GpuKind::kMemcpyD2H || k == GpuKind::kMemcpyD2D ||
         k == GpuKind::kMemcpyOther;
}

}  // namespace stepline
