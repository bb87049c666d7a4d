// OpStats: per (name, kind) totals of host ops, kernels, copies and memsets,
// the "which ops cost the most" table.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

enum class OpKind : uint8_t {
  kHostOp = 0,  // any slice on a host thread
  kKernel,      // compute or collective kernel
  kMemcpy,      // any copy direction
  kMemset,
  // A CUDA / HIP graph's replays (graph_replays.h): the launch call's name,
  // owning the time of the nodes its replays ran. Their time is also in the
  // nodes' own rows, so these rows stay out of both sides' sums.
  kGraphReplay,
};
std::string_view OpKindName(OpKind k);  // "host_op", "kernel", "memcpy", "memset", "graph_replay"
inline bool IsDeviceOpKind(OpKind k) { return k != OpKind::kHostOp && k != OpKind::kGraphReplay; }

struct OpStat {
  StringId name;
  OpKind kind = OpKind::kHostOp;
  uint64_t count = 0;
  DurNs total_ns = 0;  // summed durations
  DurNs self_ns = 0;   // total minus the time of direct children on the same track
  DurNs min_ns = 0, max_ns = 0;
  DurNs avg_ns = 0;  // total / count, rounded down
  // self_ns as a share of all host self time (host ops) or all device self
  // time (the three device kinds), and the running sum of that share in the
  // order of `OpStats::ops` within the same side. Percent, 0..100.
  double percent = 0;
  double cumulative_percent = 0;
  bool collective = false;  // a kernel row of collective slices (NCCL, XLA all-reduce-done, ...): not compute
  int64_t graph_id = -1;    // kGraphReplay rows: the graph (GraphReplay::graph_id); -1 otherwise
};

struct OpStats {
  std::vector<OpStat> ops;  // sorted by total_ns descending, then name
  // Step markers (ProfilerStep#N, the slices the StepSet made its steps from:
  // XLA step annotations, NVTX/roctx step ranges) are not ops: they wrap a
  // whole step, so as rows they led every table by total time. Kept apart, in
  // the same order, for the window's "Show step markers"; percent 0.
  std::vector<OpStat> step_markers;
  DurNs host_self_ns = 0;   // denominators of `percent`
  DurNs device_self_ns = 0;
};

struct StepSet;
// `steps`: the trace's steps, whose marker slices are kept out of `ops`
// (null: only ProfilerStep#N by name).
OpStats ComputeOpStats(const Trace& trace, const StepSet* steps = nullptr);

}  // namespace stepline::analysis
