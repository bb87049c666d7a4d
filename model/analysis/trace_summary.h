// TraceSummary: the headline counts of a loaded trace (what `stepline info`
// prints): events per table, tracks per kind, GPU activity per kind, steps.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/gpu_kind.h"
#include "model/trace.h"
#include "model/track_table.h"

namespace stepline::analysis {

struct TraceSummary {
  uint64_t slices = 0, instants = 0, counter_samples = 0, flows = 0, launch_flows = 0;
  uint64_t memory_events = 0;  // memory/OOM instants (model/memory_table.h); not counted in `instants`
  std::array<uint64_t, kTrackKindCount> tracks_by_kind{};  // indexed by TrackKind
  DurNs span_ns = 0;
  // GPU-side slices (gpu_kind != kNone), count and summed duration per kind,
  // indexed by GpuKind.
  std::array<uint64_t, kGpuKindCount> gpu_count{};
  std::array<DurNs, kGpuKindCount> gpu_ns{};
  uint64_t devices = 0;  // distinct device ids with at least one GPU-side slice
  // Per device id (ascending, -1 = no known device first): its GPU stream
  // tracks and the GPU-side slices on its tracks, by GpuKind.
  struct Device {
    int32_t device_id = -1;
    uint32_t streams = 0;
    std::array<uint64_t, kGpuKindCount> gpu_count{};
    std::array<DurNs, kGpuKindCount> gpu_ns{};
  };
  std::vector<Device> device_list;
  // The steps `report` and the window use: ComputeTraceSteps (this
  // once counted ProfilerStep# slices and Steps-row names on its own).
  uint64_t steps = 0;
};

TraceSummary ComputeTraceSummary(const Trace& trace);

}  // namespace stepline::analysis
