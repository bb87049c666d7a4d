// Naming conventions of GPU activity shared by the loaders: which Kineto
// categories are device-side, and what a memcpy/memset/kernel name says.
#pragma once

#include <string_view>

#include "model/gpu_kind.h"

namespace stepline::loaders {

// Kineto categories of every version that live on a GPU stream row:
// kernel/Kernel, gpu_memcpy/Memcpy, gpu_memset/Memset (kGpuActivity), and
// gpu_user_annotation (device-side annotation rows, GpuKind::kNone).
enum class KinetoCategory : uint8_t {
  kOther = 0,
  kKernel,
  kMemcpy,
  kMemset,
  kGpuAnnotation,  // gpu_user_annotation
  kRuntime,        // cuda_runtime / Runtime / cuda_driver / hip runtime: host launch calls
  kCpuOp,          // cpu_op / Operator
  kPython,         // python_function
  kUserAnnotation, // user_annotation
  // Another accelerator's device activity: Kineto's MTIA queue
  // events (mtia_ccp_events, mtia_insight) and Gaudi's hpu_op. What each
  // event does comes from its name (AcceleratorActivityKind).
  kAcceleratorActivity,
};
KinetoCategory ClassifyKinetoCategory(std::string_view category);
inline bool IsDeviceCategory(KinetoCategory c) {
  return c == KinetoCategory::kKernel || c == KinetoCategory::kMemcpy || c == KinetoCategory::kMemset ||
         c == KinetoCategory::kGpuAnnotation || c == KinetoCategory::kAcceleratorActivity;
}

// Direction of a copy from its name: Kineto "Memcpy HtoD (Pageable -> Device)",
// XSpace "MemcpyH2D", ROCm "CopyHostToDevice", TF "MemcpyHToD". kMemcpyOther when
// the name says nothing.
GpuKind ClassifyMemcpyName(std::string_view name);
// Direction from XSpace memcpy_details "kind_src:host kind_dst:device ..." or
// Kineto args; kNone when unknown.
GpuKind ClassifyMemcpyKinds(std::string_view src_kind, std::string_view dst_kind);
// NCCL / RCCL / other collective-library kernels.
bool IsCollectiveKernelName(std::string_view name);
// Kernel vs collective from the kernel's name.
inline GpuKind ClassifyKernelName(std::string_view name) {
  return IsCollectiveKernelName(name) ? GpuKind::kCollective : GpuKind::kKernel;
}

}  // namespace stepline::loaders
