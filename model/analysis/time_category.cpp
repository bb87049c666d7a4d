// Names and mappings of the analysis vocabularies (see time_category.h).
#include "model/analysis/time_category.h"

namespace stepline::analysis {

std::string_view TimeCategoryName(TimeCategory c) {
  switch (c) {
    case TimeCategory::kCompute: return "compute";
    case TimeCategory::kCollective: return "collective";
    case TimeCategory::kMemcpyH2D: return "memcpy_h2d";
    case TimeCategory::kMemcpyD2H: return "memcpy_d2h";
    case TimeCategory::kMemcpyOther: return "memcpy_other";
    case TimeCategory::kMemset: return "memset";
    case TimeCategory::kIdleInput: return "idle_input";
    case TimeCategory::kIdleSync: return "idle_sync";
    case TimeCategory::kIdleLaunch: return "idle_launch";
    case TimeCategory::kIdleHostCompute: return "idle_host_compute";
    case TimeCategory::kIdleGraph: return "idle_graph";
    case TimeCategory::kIdleOther: return "idle_other";
  }
  return "?";
}

TimeCategory ActivityCategory(GpuKind kind) {
  switch (kind) {
    case GpuKind::kKernel: return TimeCategory::kCompute;
    case GpuKind::kCollective: return TimeCategory::kCollective;
    case GpuKind::kMemcpyH2D: return TimeCategory::kMemcpyH2D;
    case GpuKind::kMemcpyD2H: return TimeCategory::kMemcpyD2H;
    case GpuKind::kMemcpyD2D:
    case GpuKind::kMemcpyOther: return TimeCategory::kMemcpyOther;
    case GpuKind::kMemset: return TimeCategory::kMemset;
    case GpuKind::kNone: break;
  }
  return TimeCategory::kIdleOther;
}

std::string_view IdleCauseName(IdleCause c) {
  switch (c) {
    case IdleCause::kInput: return "input";
    case IdleCause::kMemcpyH2D: return "memcpy_h2d";
    case IdleCause::kMemcpyD2H: return "memcpy_d2h";
    case IdleCause::kSync: return "sync";
    case IdleCause::kLaunch: return "launch";
    case IdleCause::kHostCompute: return "host_compute";
    case IdleCause::kGraph: return "graph";
    case IdleCause::kOther: return "other";
  }
  return "?";
}

TimeCategory IdleCategory(IdleCause c) {
  switch (c) {
    case IdleCause::kInput: return TimeCategory::kIdleInput;
    case IdleCause::kSync: return TimeCategory::kIdleSync;
    case IdleCause::kLaunch: return TimeCategory::kIdleLaunch;
    case IdleCause::kHostCompute: return TimeCategory::kIdleHostCompute;
    case IdleCause::kGraph: return TimeCategory::kIdleGraph;
    case IdleCause::kMemcpyH2D:
    case IdleCause::kMemcpyD2H:
    case IdleCause::kOther: break;
  }
  return TimeCategory::kIdleOther;
}

std::string_view HostCategoryName(HostCategory c) {
  switch (c) {
    case HostCategory::kNone: return "none";
    case HostCategory::kInput: return "input";
    case HostCategory::kSync: return "sync";
    case HostCategory::kLaunch: return "launch";
    case HostCategory::kHostCompute: return "host_compute";
    case HostCategory::kIgnore: return "ignore";
  }
  return "?";
}

bool ParseHostCategory(std::string_view text, HostCategory* out) {
  for (HostCategory c : {HostCategory::kInput, HostCategory::kSync, HostCategory::kLaunch, HostCategory::kHostCompute,
                         HostCategory::kIgnore}) {
    if (text == HostCategoryName(c)) {
      *out = c;
      return true;
    }
  }
  return false;
}

IdleCause HostCategoryCause(HostCategory c) {
  switch (c) {
    case HostCategory::kInput: return IdleCause::kInput;
    case HostCategory::kSync: return IdleCause::kSync;
    case HostCategory::kLaunch: return IdleCause::kLaunch;
    case HostCategory::kHostCompute: return IdleCause::kHostCompute;
    case HostCategory::kNone:
    case HostCategory::kIgnore: break;
  }
  return IdleCause::kOther;
}

}  // namespace stepline::analysis
