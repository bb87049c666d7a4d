// Kineto and TensorBoard naming conventions (see kineto_conventions.h).
#include "loaders/chrome_json/kineto_conventions.h"

#include <algorithm>
#include <array>
#include <string>

#include "loaders/chrome_json/json_number.h"
#include "model/ascii_case.h"

namespace stepline::loaders {
namespace {

// Spellings gpu_classify.h does not list (it compares exactly); matched
// lower-cased. "gpu_user_Annotation" is the pre-2022 spelling.
struct ExtraCategory {
  std::string_view lower;
  KinetoCategory kind;
};
constexpr ExtraCategory kExtraCategories[] = {
    {"gpu_user_annotation", KinetoCategory::kGpuAnnotation},
    {"kernel", KinetoCategory::kKernel},
    {"gpu_memcpy", KinetoCategory::kMemcpy},
    {"memcpy", KinetoCategory::kMemcpy},
    {"gpu_memset", KinetoCategory::kMemset},
    {"memset", KinetoCategory::kMemset},
    {"cuda_runtime", KinetoCategory::kRuntime},
    {"runtime", KinetoCategory::kRuntime},
    {"cuda_driver", KinetoCategory::kRuntime},
    {"hip_runtime", KinetoCategory::kRuntime},
    {"hip_driver", KinetoCategory::kRuntime},
    {"cpu_op", KinetoCategory::kCpuOp},
    {"operator", KinetoCategory::kCpuOp},
    {"python_function", KinetoCategory::kPython},
    {"user_annotation", KinetoCategory::kUserAnnotation},
    {"mtia_ccp_events", KinetoCategory::kAcceleratorActivity},
    {"mtia_insight", KinetoCategory::kAcceleratorActivity},
    {"hpu_op", KinetoCategory::kAcceleratorActivity},
};

// Device rows without GpuKind activity: CUDA sync/event rows.
constexpr std::string_view kOtherDeviceCategories[] = {"cuda_sync", "cuda_event"};

// An accelerator queue event by its name (MTIA: pe_exe, merge, remote run;
// dma_request copies; event_record / event_wait order the queues).
GpuKind AcceleratorActivityKind(std::string_view name) {
  for (std::string_view w : {"wait", "record", "sync", "signal"}) {
    if (ContainsIgnoringCase(name, w)) return GpuKind::kNone;
  }
  if (ContainsIgnoringCase(name, "memset")) return GpuKind::kMemset;
  for (std::string_view w : {"dma", "memcpy", "copy"}) {
    if (ContainsIgnoringCase(name, w)) return ClassifyMemcpyName(name);
  }
  return ClassifyKernelName(name);
}

constexpr std::string_view kDerivedRows[] = {
    "Steps",       "TensorFlow Ops",        "Framework Ops",        "XLA Ops",
    "XLA Modules", "TensorFlow Name Scope", "Framework Name Scope", "Launch Stats",
    "Source code", "Async XLA Ops",
};

// The number after `prefix` at the start of `s` (digits only), or -1.
int32_t NumberAfter(std::string_view s, std::string_view prefix) {
  if (!s.starts_with(prefix)) return -1;
  s.remove_prefix(prefix.size());
  size_t n = 0;
  while (n < s.size() && s[n] >= '0' && s[n] <= '9') ++n;
  int64_t v = 0;
  if (n == 0 || n > 9 || !ParseIntegerKey(s.substr(0, n), &v)) return -1;
  return static_cast<int32_t>(v);
}

}  // namespace

CategoryTraits CategoryTraitsCache::Get(StringId category, const StringPool& strings) {
  if (category.is_none()) return CategoryTraits{};
  if (cached_.size() <= category.index()) cached_.resize(category.index() + 1, 0);
  uint8_t& cached = cached_[category.index()];
  if (cached == 0) {
    const CategoryTraits t = ClassifyCategory(strings.Get(category));
    cached = static_cast<uint8_t>(1 + (static_cast<uint8_t>(t.kind) << 1 | (t.device_side ? 1 : 0)));
  }
  CategoryTraits t;
  t.kind = static_cast<KinetoCategory>((cached - 1) >> 1);
  t.device_side = ((cached - 1) & 1) != 0;
  return t;
}

CategoryTraits ClassifyCategory(std::string_view category) {
  CategoryTraits t;
  t.kind = ClassifyKinetoCategory(category);
  const std::string lower = AsciiLower(category);
  if (t.kind == KinetoCategory::kOther) {
    for (const ExtraCategory& e : kExtraCategories) {
      if (lower == e.lower) t.kind = e.kind;
    }
  }
  t.device_side = IsDeviceCategory(t.kind) ||
                  std::find(std::begin(kOtherDeviceCategories), std::end(kOtherDeviceCategories), lower) !=
                      std::end(kOtherDeviceCategories);
  return t;
}

GpuKind KinetoGpuKind(KinetoCategory kind, std::string_view name) {
  switch (kind) {
    case KinetoCategory::kKernel: return ClassifyKernelName(name);
    case KinetoCategory::kMemcpy: return ClassifyMemcpyName(name);
    case KinetoCategory::kMemset: return GpuKind::kMemset;
    case KinetoCategory::kAcceleratorActivity: return AcceleratorActivityKind(name);
    default: return GpuKind::kNone;
  }
}

bool IsLaunchFlow(std::string_view category, std::string_view name) {
  return category == "ac2g" || category == "async_cpu_to_gpu" || category == "async_gpu" ||
         (category == "async" && name == "launch");
}

int32_t DeviceFromProcessName(std::string_view process_name) {
  constexpr std::string_view kGpu = "/device:GPU:";
  const size_t at = process_name.find(kGpu);
  if (at == std::string_view::npos) return -1;
  return NumberAfter(process_name.substr(at), kGpu);
}

int32_t DeviceFromProcessLabels(std::string_view labels) {
  // Labels are comma separated; Kineto writes exactly one, "GPU <n>".
  while (!labels.empty()) {
    const size_t comma = labels.find(',');
    std::string_view label = labels.substr(0, comma);
    while (!label.empty() && label.front() == ' ') label.remove_prefix(1);
    const int32_t device = NumberAfter(label, "GPU ");
    if (device >= 0) return device;
    if (comma == std::string_view::npos) break;
    labels.remove_prefix(comma + 1);
  }
  return -1;
}

TrackKind TensorBoardRowKind(std::string_view thread_name) {
  if (thread_name.starts_with("Stream #")) return TrackKind::kGpuStream;
  // Newer XProf derives rows per stream: "XLA Ops - from #14".
  const size_t from = thread_name.find(" - from #");
  const std::string_view base = thread_name.substr(0, from);
  for (std::string_view derived : kDerivedRows) {
    if (base == derived) return TrackKind::kGpuDerived;
  }
  return TrackKind::kHostThread;
}

GpuKind TensorBoardGpuKind(std::string_view name) {
  if (name.starts_with("Memcpy")) return ClassifyMemcpyName(name);
  if (name.starts_with("Memset")) return GpuKind::kMemset;
  if (name.starts_with("Memory")) return GpuKind::kNone;  // MemoryAlloc / MemoryResidency records
  return ClassifyKernelName(name);
}

GpuKind MemcpyDetailsKind(std::string_view details) {
  auto value_of = [&](std::string_view key) -> std::string_view {
    const size_t at = details.find(key);
    if (at == std::string_view::npos) return {};
    std::string_view rest = details.substr(at + key.size());
    return rest.substr(0, rest.find(' '));
  };
  return ClassifyMemcpyKinds(value_of("kind_src:"), value_of("kind_dst:"));
}

}  // namespace stepline::loaders
