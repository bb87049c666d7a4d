// DeviceActivity: the GPU-side slices of one device gathered across its
// streams (kernels, copies, memsets), the union of its kernel time, and its
// GPU-active span. LaunchIndex: the host launch call of each GPU slice, from
// FlowKind::kLaunch flows. Both are inputs of the step and idle analyses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/analysis/graph_replays.h"
#include "model/trace.h"

namespace stepline::analysis {

// What kind of device a DeviceActivity is: a GPU, a TPU, another accelerator
// (MTIA, XPU, HPU, custom XLA devices), or GPU-side slices on tracks of no
// known device (device id -1).
enum class DeviceKind : uint8_t { kGpu = 0, kUnknown, kTpu, kOther };
std::string_view DeviceKindName(DeviceKind kind);  // "gpu", "unknown", "tpu", "other"
// The kind a device process's name says ("/device:TPU:0", "TPU 0" -> tpu;
// "MTIA 17", "XPU 0", "HPU 0", "/device:CUSTOM:0" -> other); gpu otherwise.
DeviceKind DeviceKindOfProcessName(std::string_view process_name);
// A device's display name: "GPU 0", "TPU 3", and for other accelerators the
// process's own "<word> <n>" ("MTIA 17"), else "Device <n>".
std::string DeviceLabel(DeviceKind kind, int32_t device_id, std::string_view process_name);

struct Interval {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  DurNs dur_ns() const { return end_ns - start_ns; }
};

// One GPU-side slice of a device (gpu_kind != kNone).
struct DeviceOp {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  SliceId slice;
  GpuKind kind = GpuKind::kNone;
};

struct DeviceActivity {
  int32_t device_id = -1;        // -1: GPU slices on tracks of no known device
  DeviceKind kind = DeviceKind::kGpu;
  std::string name;              // DeviceLabel ("GPU 0", "TPU 0"), or the device process's name
  std::vector<TrackId> streams;  // tracks holding this device's GPU slices
  // Every GPU-side slice, sorted by start (ties: stream order). Zero-length slices are kept
  // (they count in op stats) but occupy no time.
  std::vector<DeviceOp> ops;
  // Union of kernel (compute + collective) time: sorted, disjoint, non-empty.
  std::vector<Interval> kernel_busy;
  // The first kernel starting each kernel_busy interval (same length).
  std::vector<SliceId> busy_first_kernel;
  std::vector<Interval> h2d_busy, d2h_busy;  // union of H2D / D2H copy time
  DurNs kernel_ns = 0;                       // summed kernel durations (overlap counted twice)
  DurNs busy_ns = 0;                         // length of kernel_busy
  TimeRange active_span;                     // first kernel start .. last kernel end; empty without kernels
};

// Devices with at least one GPU-side slice, ordered by device id (-1 last).
std::vector<DeviceActivity> ComputeDeviceActivity(const Trace& trace);
// Index of the device with the most kernel time (ties: lower id); -1 if none.
int PrimaryDeviceIndex(const std::vector<DeviceActivity>& devices);
// The device_id of that device without gathering every device's ops (one
// pass summing kernel durations: what the steps need, and all `info` needs;
// 0.2 s less on the 10M-slice demo); nullopt when no device ran a kernel.
std::optional<int32_t> PrimaryDeviceId(const Trace& trace);

// Sorted disjoint union of intervals (empty ones dropped).
std::vector<Interval> MergeIntervals(std::vector<Interval> intervals);
// Length of the part of [range] covered by sorted disjoint `merged`.
DurNs CoveredNs(const std::vector<Interval>& merged, TimeRange range);

// CoveredNs for ranges asked in increasing start order: a cursor walks the
// intervals forward instead of bisecting them for every query (a backwards
// query falls back to bisection).
class CoverageCursor {
 public:
  explicit CoverageCursor(const std::vector<Interval>& merged) : merged_(merged) {}
  DurNs CoveredNs(TimeRange range);

 private:
  const std::vector<Interval>& merged_;
  size_t next_ = 0;  // first interval that may end after the last query's start
  TimeNs last_start_ns_ = INT64_MIN;
};

// One GPU stream's activity as HTA's per-stream idle-time breakdown sees it:
// every GPU-side op on the stream counts as busy (copies and memsets too, not
// only kernels), and idle is the stream's span minus that. HTA sums
// (start - previous end) over the stream's ops in start order, which equals
// idle_ns whenever no two ops of the stream overlap.
struct StreamIdle {
  TrackId stream;
  int32_t device_id = -1;
  TimeRange span;            // first op start .. last op end
  DurNs busy_ns = 0;         // union of the stream's GPU ops
  DurNs idle_ns = 0;         // span - busy
  bool has_overlap = false;  // two ops of the stream overlap (nested or concurrent)
};
std::vector<StreamIdle> ComputeStreamIdle(const Trace& trace);

// launch_of[slice] = the host launch call of a GPU slice, None when the trace
// links none. Several launches for one slice: the first flow row wins.
// graphs: the graph replays those links form (graph_replays.h).
struct LaunchIndex {
  std::vector<SliceId> launch_of;
  GraphReplays graphs;
  SliceId LaunchOf(SliceId gpu_slice) const {
    return gpu_slice.index() < launch_of.size() ? launch_of[gpu_slice.index()] : SliceId::None();
  }
};
LaunchIndex BuildLaunchIndex(const Trace& trace);

}  // namespace stepline::analysis
