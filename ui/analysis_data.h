// AnalysisData: the analysis results the panels show, computed once per trace
// on the load thread (inside TimelineData) so the window never waits. Holds
// the string-resolved Report plus the id-carrying gaps the timeline links to.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "model/analysis/idle_gap.h"
#include "model/analysis/report.h"
#include "model/trace.h"

namespace stepline::ui {

struct AnalysisData {
  analysis::Report report;
  // Every device's gaps inside its GPU-active span (no minimum length), device
  // by device, each device's in start order. Unlike Report::gaps they keep
  // SliceIds (next kernel, launch, blamed events) so clicks can select them.
  std::vector<analysis::IdleGap> gaps;
  std::vector<uint32_t> gap_device;                        // per gap: index into report.devices
  std::vector<std::pair<uint32_t, uint32_t>> device_gaps;  // per device: [begin, end) into gaps
  std::vector<int32_t> device_of_track;                    // per TrackId: index into report.devices, -1 none
  std::vector<StringId> op_names;                          // per report.ops row (string id of its name)
  std::vector<StringId> kernel_names;                      // per report.kernels row
  DurNs step_mean_ns = 0, step_std_ns = 0;                 // over report.steps
  // The host event name blamed by the most listed gaps (ties: more overlap):
  // an index into report.gap_events holding that name, -1 none.
  int top_blamed_event = -1;
  uint64_t top_blamed_gaps = 0;  // how many listed gaps blame it
  DurNs top_blamed_ns = 0;       // its summed overlap over them
};

AnalysisData ComputeAnalysisData(const Trace& trace);

// The index into report.devices of device ordinal `device_id`, -1 none.
int32_t DeviceIndexOfId(const AnalysisData& a, int32_t device_id);
// The event a gap's arrow starts from: its most blamed event, else the launch
// call of the kernel that ended it (None when neither is known).
SliceId ArrowSource(const analysis::IdleGap& g);

// The gaps of `device` overlapping [range], as an index range into `gaps`.
std::pair<uint32_t, uint32_t> GapsInRange(const AnalysisData& a, uint32_t device, TimeRange range);

}  // namespace stepline::ui
