// The closed vocabularies of the analysis: step-time categories, GPU idle
// causes, and the host-event categories of the idle-cause pattern table.
// Definitions and the mapping to XProf's step-time categories: docs/analysis.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "model/gpu_kind.h"
#include "model/time.h"

namespace stepline::analysis {

// Every instant of a step's wall time goes to exactly one of these, by
// priority: the first device activity category running at that instant, else
// the idle category of the cause of the idle gap it falls in.
enum class TimeCategory : uint8_t {
  kCompute = 0,      // a compute kernel runs
  kCollective,       // no compute kernel; a NCCL/RCCL kernel runs
  kMemcpyH2D,        // no kernel; a host->device copy runs
  kMemcpyD2H,        // ... a device->host copy
  kMemcpyOther,      // ... a device->device, peer or unknown copy
  kMemset,           // ... a memset
  kIdleInput,        // nothing runs; the gap's cause is input
  kIdleSync,         // ... sync
  kIdleLaunch,       // ... launch
  kIdleHostCompute,  // ... host_compute
  kIdleGraph,        // ... graph: inside a CUDA/HIP graph replay, between its nodes
  kIdleOther,        // ... other, memcpy_h2d or memcpy_d2h (the copy's own time is kMemcpy*)
};
inline constexpr int kTimeCategoryCount = 12;
std::string_view TimeCategoryName(TimeCategory c);  // "compute", "idle_input", ...
inline bool IsIdle(TimeCategory c) { return c >= TimeCategory::kIdleInput; }
// The device-activity category of a GPU slice; kIdleOther for GpuKind::kNone.
TimeCategory ActivityCategory(GpuKind kind);

// Why the GPU sat idle in a gap (closed list of the issue).
enum class IdleCause : uint8_t {
  kInput = 0,
  kMemcpyH2D,
  kMemcpyD2H,
  kSync,
  kLaunch,
  kHostCompute,
  kGraph,  // a gap between two nodes of one graph replay: the GPU runs the graph's dependencies
  kOther,
};
inline constexpr int kIdleCauseCount = 8;
std::string_view IdleCauseName(IdleCause c);  // "input", "memcpy_h2d", ...
TimeCategory IdleCategory(IdleCause c);       // kIdleInput, ..., kIdleOther

// What a host event is doing, from the pattern table. kNone: matched no row.
// kIgnore events are transparent: never blamed, their children are weighed
// as if they were absent (user-defined wrapper annotations).
enum class HostCategory : uint8_t {
  kNone = 0,
  kInput,
  kSync,
  kLaunch,
  kHostCompute,
  kIgnore,
};
std::string_view HostCategoryName(HostCategory c);  // "input", "sync", ...
// Parses "input", "sync", "launch", "host_compute", "ignore"; false otherwise.
bool ParseHostCategory(std::string_view text, HostCategory* out);
IdleCause HostCategoryCause(HostCategory c);  // kNone/kIgnore -> kOther

using CategoryNs = std::array<DurNs, kTimeCategoryCount>;  // indexed by TimeCategory
using CauseNs = std::array<DurNs, kIdleCauseCount>;        // indexed by IdleCause

inline DurNs& At(CategoryNs& a, TimeCategory c) { return a[static_cast<size_t>(c)]; }
inline DurNs At(const CategoryNs& a, TimeCategory c) { return a[static_cast<size_t>(c)]; }
inline DurNs& At(CauseNs& a, IdleCause c) { return a[static_cast<size_t>(c)]; }
inline DurNs At(const CauseNs& a, IdleCause c) { return a[static_cast<size_t>(c)]; }

}  // namespace stepline::analysis
