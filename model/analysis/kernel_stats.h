// KernelStats: GPU kernels grouped by (name, grid, block, registers, shared
// memory, launching framework op, graph and graph node), with their launch configuration where the
// trace states it: Kineto args `grid`, `block`, `registers per thread`,
// `shared memory`, `est. achieved occupancy %`; XSpace `kernel_details`
// ("regs:32 static_shared:0 dynamic_shared:0 grid:1,1,1 block:128,1,1 occ_pct:50").
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/analysis/idle_cause_table.h"
#include "model/trace.h"

namespace stepline::analysis {

struct KernelStat {
  StringId name;
  std::array<int64_t, 3> grid{};      // all 0 = unknown
  std::array<int64_t, 3> block{};     // all 0 = unknown
  int64_t registers_per_thread = -1;  // -1 = unknown
  int64_t shared_memory_bytes = -1;   // static + dynamic; -1 = unknown
  double occupancy_percent = -1;      // mean over the instances that state it; -1 = none does
  // The framework op that launched the kernel: the XSpace `tf_op` arg, else
  // the host op enclosing the launch call (runtime calls and step markers
  // skipped). None = unknown.
  StringId framework_op;
  // The CUDA / HIP graph the kernels were replayed from (graph_replays.h):
  // recorded or derived; -1 outside graphs. Its recorded node, -1 unknown.
  // Kernels of one graph (and node) form their own rows.
  int64_t graph_id = -1;
  int64_t graph_node_id = -1;
  uint64_t count = 0;
  DurNs total_ns = 0, min_ns = 0, max_ns = 0, avg_ns = 0;
};

// Sorted by total_ns descending, then name.
std::vector<KernelStat> ComputeKernelStats(const Trace& trace, const LaunchIndex& launches,
                                           const IdleCauseTable& table = IdleCauseTable::Default());

}  // namespace stepline::analysis
