// XSpace naming conventions; sources are listed in shared/docs/trace-formats.md
// section 5 (TSL xplane_schema, trace_utils, cupti_collector, XProf).
#include "loaders/xspace/xplane_conventions.h"

#include <charconv>

#include "loaders/gpu_classify.h"
#include "model/ascii_case.h"

namespace stepline::loaders::xspace {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// "<digits>" at the end of `s` after `prefix`; false if anything else follows.
bool ParseOrdinal(std::string_view s, std::string_view prefix, int32_t* out) {
  if (!StartsWith(s, prefix)) return false;
  std::string_view rest = s.substr(prefix.size());
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
  if (ec != std::errc() || ptr == rest.data()) return false;
  *out = v;
  return true;
}

// Strips a " - from #<digits>" suffix (per-stream derived lines of newer XProf).
std::string_view StripFromStream(std::string_view name) {
  const size_t at = name.rfind(" - from #");
  return at == std::string_view::npos ? name : name.substr(0, at);
}

// TSL reserves line ids from the 32-bit value 0xDEADBEEF upwards for derived
// lines; declared `int`, so files store them as negative int64 (-559038737),
// and a converter that truncated to uint32 wrote 3735928559.
bool IsDerivedLineId(int64_t id) {
  constexpr int64_t kBaseSigned = -559038737;  // int32(0xDEADBEEF)
  constexpr int64_t kBaseUnsigned = 0xDEADBEEF;
  constexpr int64_t kSpan = 512;               // documented ranges end at +289
  return (id >= kBaseSigned && id < kBaseSigned + kSpan) || (id >= kBaseUnsigned && id < kBaseUnsigned + kSpan);
}

}  // namespace

PlaneClass ClassifyPlane(std::string_view name, int64_t plane_id) {
  PlaneClass c;
  int32_t ordinal = 0;
  if (name == "/host:CPU") {
    c.kind = PlaneKind::kHostCpu;
  } else if (StartsWith(name, "/device:GPU:")) {
    c.kind = PlaneKind::kGpu;
    c.device_id = ParseOrdinal(name, "/device:GPU:", &ordinal) ? ordinal : static_cast<int32_t>(plane_id);
  } else if (StartsWith(name, "/device:TPU:")) {
    // "/device:TPU:3" and its SparseCores "/device:TPU:3 SparseCore 0".
    c.kind = PlaneKind::kTpu;
    std::string_view digits = name.substr(12);
    digits = digits.substr(0, digits.find(' '));
    c.device_id = ParseOrdinal(digits, "", &ordinal) ? ordinal : static_cast<int32_t>(plane_id);
  } else if (name == "Task Environment") {
    c.kind = PlaneKind::kTaskEnv;
  } else if (name == "/host:metadata") {
    c.kind = PlaneKind::kMetadataOnly;
  }
  return c;
}

bool IsDerivedLineName(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "Steps",          "Launch Stats",          "Framework Name Scope", "TensorFlow Name Scope",
      "Framework Ops",  "TensorFlow Ops",        "XLA Modules",          "XLA Ops",
      "Source code",    "Async XLA Ops",         "Host Offload Ops",     "Sparse Core Steps",
      "Sparse Core Ops", "Sparse Core Modules",  "Tensor Core Sync Flag", "Sparse Core Syncs",
  };
  const std::string_view base = StripFromStream(name);
  for (std::string_view n : kNames) {
    if (base == n) return true;
  }
  return false;
}

bool IsStepsLineName(std::string_view name) { return StripFromStream(name) == "Steps"; }

bool IsXlaOpsLineName(std::string_view name) { return StripFromStream(name) == "XLA Ops"; }

LineKind ClassifyLine(PlaneKind plane, std::string_view line_name, int64_t line_id) {
  if (line_name == "_counters_") return LineKind::kCounters;
  switch (plane) {
    case PlaneKind::kGpu:
      if (IsDerivedLineName(line_name)) return LineKind::kDerived;
      if (StartsWith(line_name, "Stream #")) return LineKind::kStream;
      return IsDerivedLineId(line_id) ? LineKind::kDerived : LineKind::kStream;
    case PlaneKind::kTpu:
      return LineKind::kDerived;  // TPU planes hold only runtime-written XLA lines
    default:
      return LineKind::kHost;
  }
}

MemcpyKinds ParseMemcpyDetails(std::string_view details) {
  MemcpyKinds kinds;
  size_t pos = 0;
  while (pos < details.size()) {
    size_t end = details.find(' ', pos);
    if (end == std::string_view::npos) end = details.size();
    const std::string_view word = details.substr(pos, end - pos);
    if (StartsWith(word, "kind_src:")) kinds.src = word.substr(9);
    if (StartsWith(word, "kind_dst:")) kinds.dst = word.substr(9);
    pos = end + 1;
  }
  return kinds;
}

GpuKind ClassifyDeviceEvent(const DeviceEventFacts& f) {
  if (f.line_name == "CUPTI overhead") return GpuKind::kNone;
  if (f.has_memcpy_details || StartsWithIgnoringCase(f.name, "Memcpy")) {
    const MemcpyKinds kinds = ParseMemcpyDetails(f.memcpy_details);
    const GpuKind by_kinds = ClassifyMemcpyKinds(kinds.src, kinds.dst);
    return by_kinds != GpuKind::kNone ? by_kinds : ClassifyMemcpyName(f.name);
  }
  if (f.has_memset_details || StartsWithIgnoringCase(f.name, "Memset")) return GpuKind::kMemset;
  if (f.has_memory_details || StartsWith(f.name, "Memory") || StartsWith(f.name, "UnifiedMemory")) {
    return GpuKind::kNone;
  }
  return ClassifyKernelName(f.name);
}

bool IsHostStepMarkerName(std::string_view name) {
  if (name.find('/') != std::string_view::npos) return false;
  return StartsWith(name, "train") || StartsWith(name, "test") || StartsWith(name, "TraceContext");
}

}  // namespace stepline::loaders::xspace
