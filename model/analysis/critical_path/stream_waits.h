// The waits between streams and the GPU work a synchronization names, as
// Kineto records them: its `cuda_sync` events (CUPTI's synchronization
// activity) sit on the device, each linked by its correlation to the runtime
// call that caused it, with args
//   cuda_sync_kind                      "Stream Wait Event", "Event Sync",
//                                       "Stream Sync", "Context Sync"
//   stream                              the waiting stream (Stream Wait Event, Stream Sync)
//   wait_on_stream                      the stream the event was recorded on (-1 unknown)
//   wait_on_cuda_event_record_corr_id   the cudaEventRecord call's correlation (-1 unknown)
// An event recorded on stream A covers the work enqueued on A before its
// cudaEventRecord call: the last GPU op of A launched before that call.
//   - cudaStreamWaitEvent on stream B: the first GPU op launched on B after the
//     call waits for that op (the ops after it follow by stream order);
//   - cudaEventSynchronize: the host call waits for that op;
//   - cudaStreamSynchronize: the host call waits for the ops of its stream.
// Traces without these events (older Kineto, whose cudaEventRecord and
// cudaStreamWaitEvent calls name no stream) give no waits: the critical path
// then takes the GPU op ending last for a synchronization, as before.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/trace.h"

namespace stepline::analysis {

struct StreamWaits {
  // (waiting GPU op, the GPU op it waits for on another stream), by slice index, sorted.
  std::vector<std::pair<uint32_t, uint32_t>> op_waits;
  // (host synchronize call, the GPU op it waits for), sorted: event synchronizes.
  std::vector<std::pair<uint32_t, uint32_t>> call_waits;
  // (host synchronize call, the stream it names), sorted: stream synchronizes.
  std::vector<std::pair<uint32_t, TrackId>> call_streams;

  bool empty() const { return op_waits.empty() && call_waits.empty() && call_streams.empty(); }
  // The GPU ops `op` waits for through events (the few recorded for it).
  std::span<const std::pair<uint32_t, uint32_t>> WaitsOf(uint32_t op) const;
  uint32_t CallWaitsFor(uint32_t call) const;  // UINT32_MAX: none recorded
  TrackId CallStream(uint32_t call) const;     // None: none recorded
};

// Reads the trace's cuda_sync events; costs nothing when it has none (one
// string look-up), else one pass over the device tracks' non-GPU slices.
StreamWaits BuildStreamWaits(const Trace& trace, const LaunchIndex& launches);

}  // namespace stepline::analysis
