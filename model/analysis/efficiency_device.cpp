// Which device a trace ran on, by the name the profiler recorded.
#include <charconv>
#include <string>
#include <system_error>

#include "model/analysis/efficiency.h"

namespace stepline::analysis {
namespace {

// The text of a metadata arg, "" when absent or not text.
std::string_view DeviceMetadataText(const Trace& trace, std::string_view key_text) {
  const StringId key = trace.strings().Find(key_text);
  ArgValue v;
  if (key.is_none() || trace.info().metadata.is_none() || !trace.args().Find(trace.info().metadata, key, &v) ||
      (v.type != ArgType::kJson && v.type != ArgType::kString)) {
    return {};
  }
  return trace.str(v.as_string());
}

// The "name" of the deviceProperties object whose "id" is `device_id`.
std::string NameFromDeviceProperties(std::string_view text, int32_t device_id) {
  size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    const size_t end = text.find('}', pos);
    if (end == std::string_view::npos) break;
    const std::string_view obj = text.substr(pos, end - pos);
    pos = end + 1;
    const size_t id_at = obj.find("\"id\"");
    const size_t name_at = obj.find("\"name\"");
    if (id_at == std::string_view::npos || name_at == std::string_view::npos) continue;
    size_t i = id_at + 4;
    while (i < obj.size() && (obj[i] == ' ' || obj[i] == ':')) ++i;
    int64_t id = -1;
    if (std::from_chars(obj.data() + i, obj.data() + obj.size(), id).ec != std::errc() || id != device_id) continue;
    const size_t open = obj.find('"', obj.find(':', name_at + 6) + 1);
    const size_t close = open == std::string_view::npos ? open : obj.find('"', open + 1);
    if (close == std::string_view::npos) continue;
    return std::string(obj.substr(open + 1, close - open - 1));
  }
  return {};
}

}  // namespace

std::string FindDeviceName(const Trace& trace, int32_t device_id) {
  if (device_id < 0) return {};
  // Kineto (PyTorch profiler) writes deviceProperties at the top level.
  std::string name = NameFromDeviceProperties(DeviceMetadataText(trace, "deviceProperties"), device_id);
  if (!name.empty()) return name;
  // Nsight Systems' TARGET_INFO_GPU, as the nsys loader names it.
  name = std::string(DeviceMetadataText(trace, "gpu " + std::to_string(device_id) + " name"));
  if (!name.empty()) return name;
  // XSpace device planes: "/device:TPU:0/device_type_string" ("TPU v4").
  for (std::string_view kind : {"TPU", "GPU"}) {
    name = std::string(DeviceMetadataText(
        trace, "/device:" + std::string(kind) + ":" + std::to_string(device_id) + "/device_type_string"));
    if (!name.empty()) return name;
  }
  // rocprof and nsys name device processes "GPU 0 (AMD Instinct MI300X)".
  const ProcessTable& p = trace.processes();
  for (size_t i = 0; i < p.size(); ++i) {
    const ProcessId id = ProcessId::FromIndex(i);
    if (p.device_id(id) != device_id) continue;
    const std::string_view pname = trace.str(p.name(id));
    const size_t open = pname.find(" (");
    if (open != std::string_view::npos && pname.ends_with(')')) {
      return std::string(pname.substr(open + 2, pname.size() - open - 3));
    }
  }
  return {};
}

}  // namespace stepline::analysis
