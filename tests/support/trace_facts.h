// Facts counted from a loaded Trace in the same terms as
// tests/data/real_trace_facts/count_facts.py counts them from raw events, so a
// real-trace test compares like with like. Reads the model only (no analysis/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace stepline::testing {

// Kernels of one device (the device_id of the kernel slice's track).
struct DeviceKernels {
  int32_t device = -1;
  uint64_t count = 0;
  int64_t ns = 0;  // summed dur_ns
  bool operator==(const DeviceKernels&) const = default;
};

struct ModelFacts {
  uint64_t slices = 0;
  uint64_t kernels = 0;  // GpuKind::kKernel + kCollective (NCCL/RCCL kernels are kernels)
  int64_t kernel_ns = 0;
  std::vector<DeviceKernels> kernels_per_device;  // ascending device id
  uint64_t memcpy_h2d = 0, memcpy_d2h = 0, memcpy_d2d = 0, memcpy_other = 0, memsets = 0;
  uint64_t gpu_stream_tracks = 0;                // tracks of kind kGpuStream
  uint64_t gpu_stream_tracks_with_activity = 0;  // ... holding a slice with gpu_kind != kNone
  uint64_t step_slices = 0;                      // slices named "ProfilerStep#...", any track
  uint64_t host_step_slices = 0;                 // ... on tracks that are not kGpuStream / kGpuDerived
  uint64_t launch_flows = 0;                     // FlowKind::kLaunch rows
  uint64_t launched_activities = 0;              // distinct GPU-activity slices at the `to` end of a kLaunch flow
  // kLaunch flows whose two ends both carry a "correlation" arg with different
  // values: an arrow from a call that did not launch that activity.
  uint64_t launch_correlation_mismatches = 0;
  uint64_t launch_correlation_checked = 0;  // kLaunch flows with a "correlation" arg on both ends
  uint64_t generic_flows = 0;               // FlowKind::kGeneric rows
};

ModelFacts CountModelFacts(const Trace& trace);

// "0=79/10692000 1=5/300" (device=count/ns, ascending device), the
// kernels_per_device column format of facts.tsv.
std::string FormatKernelsPerDevice(const std::vector<DeviceKernels>& devices);

}  // namespace stepline::testing
