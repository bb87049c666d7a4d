// GPU naming conventions; sources are listed in ../shared/docs/trace-formats.md.
#include "loaders/gpu_classify.h"

#include <algorithm>
#include <string>

namespace stepline::loaders {
namespace {

// ASCII case folding, inline: libc tolower() per character was most of the
// XSpace load time on long kernel names.
inline char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool IContains(std::string_view hay, std::string_view needle) {
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return AsciiLower(a) == AsciiLower(b); });
  return it != hay.end();
}

bool IStartsWith(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && IContains(s.substr(0, prefix.size()), prefix);
}

}  // namespace

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
  if (IContains(n, "HtoD") || IContains(n, "H2D") || IContains(n, "HostToDevice")) return GpuKind::kMemcpyH2D;
  if (IContains(n, "DtoH") || IContains(n, "D2H") || IContains(n, "DeviceToHost")) return GpuKind::kMemcpyD2H;
  if (IContains(n, "DtoD") || IContains(n, "D2D") || IContains(n, "DeviceToDevice")) return GpuKind::kMemcpyD2D;
  return GpuKind::kMemcpyOther;  // PtoP, P2P, MemcpyOther, unknown
}

GpuKind ClassifyMemcpyKinds(std::string_view src, std::string_view dst) {
  auto is_host = [](std::string_view k) {
    return IStartsWith(k, "host") || IStartsWith(k, "pinned") || IStartsWith(k, "pageable");
  };
  auto is_device = [](std::string_view k) { return IStartsWith(k, "device") || IStartsWith(k, "array"); };
  if (src.empty() || dst.empty()) return GpuKind::kNone;
  if (is_host(src) && is_device(dst)) return GpuKind::kMemcpyH2D;
  if (is_device(src) && is_host(dst)) return GpuKind::kMemcpyD2H;
  if (is_device(src) && is_device(dst)) return GpuKind::kMemcpyD2D;
  return GpuKind::kMemcpyOther;
}

bool IsCollectiveKernelName(std::string_view n) {
  return IContains(n, "nccl") || IContains(n, "rccl") || IContains(n, "cross_device_reduce") ||
         IContains(n, "all_reduce") || IContains(n, "allreduce") || IContains(n, "all_gather") ||
         IContains(n, "allgather") || IContains(n, "reduce_scatter") || IContains(n, "reducescatter");
}

}  // namespace stepline::loaders
