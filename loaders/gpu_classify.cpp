// GPU naming conventions; sources are listed in ../shared/docs/trace-formats.md.
#include "loaders/gpu_classify.h"

#include <algorithm>
#include <string>

#include "model/ascii_case.h"

namespace stepline::loaders {

KinetoCategory ClassifyKinetoCategory(std::string_view c) {
  if (c == "kernel" || c == "Kernel") return KinetoCategory::kKernel;
  if (c == "gpu_memcpy" || c == "Memcpy") return KinetoCategory::kMemcpy;
  if (c == "gpu_memset" || c == "Memset") return KinetoCategory::kMemset;
  if (c == "gpu_user_annotation") return KinetoCategory::kGpuAnnotation;
  if (c == "cuda_runtime" || c == "Runtime" || c == "cuda_driver" || c == "hip_runtime" || c == "hip_driver" ||
      c == "mtia_runtime" || c == "privateuse1_runtime" || c == "xpu_runtime")
    return KinetoCategory::kRuntime;
  if (c == "cpu_op" || c == "Operator") return KinetoCategory::kCpuOp;
  if (c == "python_function") return KinetoCategory::kPython;
  if (c == "user_annotation") return KinetoCategory::kUserAnnotation;
  return KinetoCategory::kOther;
}

GpuKind ClassifyMemcpyName(std::string_view n) {
  if (ContainsIgnoringCase(n, "HtoD") || ContainsIgnoringCase(n, "H2D") || ContainsIgnoringCase(n, "HostToDevice")) return GpuKind::kMemcpyH2D;
  if (ContainsIgnoringCase(n, "DtoH") || ContainsIgnoringCase(n, "D2H") || ContainsIgnoringCase(n, "DeviceToHost")) return GpuKind::kMemcpyD2H;
  if (ContainsIgnoringCase(n, "DtoD") || ContainsIgnoringCase(n, "D2D") || ContainsIgnoringCase(n, "DeviceToDevice")) return GpuKind::kMemcpyD2D;
  return GpuKind::kMemcpyOther;  // PtoP, P2P, MemcpyOther, unknown
}

GpuKind ClassifyMemcpyKinds(std::string_view src, std::string_view dst) {
  auto is_host = [](std::string_view k) {
    return StartsWithIgnoringCase(k, "host") || StartsWithIgnoringCase(k, "pinned") || StartsWithIgnoringCase(k, "pageable");
  };
  auto is_device = [](std::string_view k) { return StartsWithIgnoringCase(k, "device") || StartsWithIgnoringCase(k, "array"); };
  if (src.empty() || dst.empty()) return GpuKind::kNone;
  if (is_host(src) && is_device(dst)) return GpuKind::kMemcpyH2D;
  if (is_device(src) && is_host(dst)) return GpuKind::kMemcpyD2H;
  if (is_device(src) && is_device(dst)) return GpuKind::kMemcpyD2D;
  return GpuKind::kMemcpyOther;
}

bool IsCollectiveKernelName(std::string_view n) {
  return ContainsIgnoringCase(n, "nccl") || ContainsIgnoringCase(n, "rccl") || ContainsIgnoringCase(n, "cross_device_reduce") ||
         ContainsIgnoringCase(n, "all_reduce") || ContainsIgnoringCase(n, "allreduce") || ContainsIgnoringCase(n, "all_gather") ||
         ContainsIgnoringCase(n, "allgather") || ContainsIgnoringCase(n, "reduce_scatter") || ContainsIgnoringCase(n, "reducescatter");
}

}  // namespace stepline::loaders
