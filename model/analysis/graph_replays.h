// GraphReplays: the CUDA / HIP graph replays of a trace. A replay is one
// graph launch call (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch) with the
// GPU work it launched: the kernels, copies and memsets linked to that call
// by correlation id (one launch, many nodes). Definitions: docs/analysis.md
// ("CUDA and HIP graph replays").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

struct GraphReplay {
  SliceId launch;                  // the graph launch call on the host
  // The graph: the `graph id` the trace records on the replay's kernels
  // (Kineto `graph id`, Nsight `graphId`), else derived: replays whose nodes
  // have the same names in the same order are one graph, numbered from 1
  // (above any recorded id) in order of first replay.
  int64_t graph_id = -1;
  bool graph_id_recorded = false;
  TrackId stream;                  // the stream of its first node
  TimeNs start_ns = 0, end_ns = 0;  // first node start .. last node end: the replay's extent
  uint32_t nodes = 0;              // GPU ops it launched
  DurNs node_ns = 0;               // their summed durations
  DurNs kernel_ns = 0;             // the summed durations of its kernels (compute and collective)
};

struct GraphReplays {
  std::vector<GraphReplay> replays;  // by start, then launch
  // (node, index into replays) for every node, sorted by node.
  std::vector<std::pair<SliceId, uint32_t>> node_replay;
  // Per node, in node_replay's order: the recorded `graph node id`, -1 none.
  std::vector<int64_t> node_id;
  DurNs max_replay_ns = 0;  // the longest replay's extent (a view finds the visible ones by start)

  bool empty() const { return replays.empty(); }
  // The replay a GPU slice is a node of; -1 when it is none's.
  int32_t ReplayOf(SliceId slice) const;
  // Its recorded graph node id; -1 when not recorded or not a node.
  int64_t NodeIdOf(SliceId slice) const;
};

// cudaGraphLaunch*, cuGraphLaunch*, hipGraphLaunch* (any suffix: _v10000, _ptsz).
bool IsGraphLaunchName(std::string_view name);

// One pass over the launch flows (launch_of: LaunchIndex::launch_of), plus a
// sort of the graph nodes only.
GraphReplays ComputeGraphReplays(const Trace& trace, std::span<const SliceId> launch_of);

// Adds one OpKind::kGraphReplay row per (launch name, graph) to `ops`: count
// = replays, total = self = the summed durations of their nodes (min, max per
// replay); percent = that time's share of the device self time, and no
// cumulative share of its own (the nodes' rows already count it). Re-sorts
// `ops` by total time.
struct OpStats;
void AddGraphReplayOps(const Trace& trace, const GraphReplays& graphs, OpStats* ops);

// The graph ids a kernel's args record: `graph id` / `graphId` and
// `graph node id` / `graphNodeId`; -1 when absent or 0 (CUPTI's "not launched
// by a graph").
struct RecordedGraphIds {
  int64_t graph_id = -1, node_id = -1;
};
class GraphArgReader {
 public:
  explicit GraphArgReader(const Trace& trace);
  RecordedGraphIds Read(ArgSetId set) const;
  bool any_keys() const { return !graph_key_[0].is_none() || !graph_key_[1].is_none(); }

 private:
  const Trace& trace_;
  StringId graph_key_[2], node_key_[2];
};

}  // namespace stepline::analysis
