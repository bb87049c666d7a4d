// GraphReplays (see graph_replays.h). The launch flows are visited once; only
// the flows of graph launch calls (a name test cached per StringId) add
// nodes, so the cost on a trace without graphs is one pass over the flows.
#include "model/analysis/graph_replays.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "model/analysis/op_stats.h"

namespace stepline::analysis {
namespace {

// FNV-1a over the node names of one replay, in node order: the derived graph
// identity of a replay whose trace records none.
uint64_t MixName(uint64_t h, StringId name) {
  for (int shift = 0; shift < 32; shift += 8) {
    h ^= (name.value >> shift) & 0xFF;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

bool IsGraphLaunchName(std::string_view name) {
  for (std::string_view prefix : {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

int32_t GraphReplays::ReplayOf(SliceId slice) const {
  auto it = std::lower_bound(node_replay.begin(), node_replay.end(), slice,
                             [](const std::pair<SliceId, uint32_t>& e, SliceId s) { return e.first < s; });
  return it != node_replay.end() && it->first == slice ? static_cast<int32_t>(it->second) : -1;
}

int64_t GraphReplays::NodeIdOf(SliceId slice) const {
  auto it = std::lower_bound(node_replay.begin(), node_replay.end(), slice,
                             [](const std::pair<SliceId, uint32_t>& e, SliceId s) { return e.first < s; });
  if (it == node_replay.end() || it->first != slice) return -1;
  return node_id[static_cast<size_t>(it - node_replay.begin())];
}

GraphArgReader::GraphArgReader(const Trace& trace) : trace_(trace) {
  const StringPool& p = trace.strings();
  graph_key_[0] = p.Find("graph id");
  graph_key_[1] = p.Find("graphId");
  node_key_[0] = p.Find("graph node id");
  node_key_[1] = p.Find("graphNodeId");
}

RecordedGraphIds GraphArgReader::Read(ArgSetId set) const {
  RecordedGraphIds ids;
  if (set.is_none() || !any_keys()) return ids;
  const ArgTable& args = trace_.args();
  for (uint32_t r = args.set_begin(set); r < args.set_end(set); ++r) {
    const StringId key = args.key()[r];
    if (key.is_none()) continue;
    const bool graph = key == graph_key_[0] || key == graph_key_[1];
    const bool node = key == node_key_[0] || key == node_key_[1];
    if (!graph && !node) continue;
    int64_t v = 0;
    if (!args.value(r).ToInt64(&v) || v <= 0) continue;  // 0: CUPTI's "not launched by a graph"
    (graph ? ids.graph_id : ids.node_id) = v;
  }
  return ids;
}

GraphReplays ComputeGraphReplays(const Trace& trace, std::span<const SliceId> launch_of) {
  GraphReplays out;
  const FlowTable& f = trace.flows();
  const SliceTable& s = trace.slices();
  std::vector<uint8_t> is_graph_launch;  // per StringId: 0 unknown, 1 no, 2 yes; made on the first launch flow
  std::unordered_map<uint32_t, uint32_t> replay_of_launch;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f.kind()[i] != FlowKind::kLaunch) continue;
    const SliceId launch = f.from()[i], node = f.to()[i];
    if (node.index() >= launch_of.size() || launch_of[node.index()] != launch) continue;  // another flow won
    if (is_graph_launch.empty()) is_graph_launch.assign(trace.strings().size(), 0);
    const StringId name = s.name()[launch.index()];
    uint8_t& known = is_graph_launch[name.index()];
    if (known == 0) known = IsGraphLaunchName(trace.str(name)) ? 2 : 1;
    if (known != 2 || s.gpu_kind()[node.index()] == GpuKind::kNone) continue;
    auto [it, inserted] = replay_of_launch.try_emplace(launch.value, static_cast<uint32_t>(out.replays.size()));
    if (inserted) {
      GraphReplay r;
      r.launch = launch;
      r.start_ns = s.start_ns()[node.index()];
      r.end_ns = r.start_ns;
      out.replays.push_back(r);
    }
    GraphReplay& r = out.replays[it->second];
    const TimeNs start = s.start_ns()[node.index()], end = start + s.dur_ns()[node.index()];
    r.start_ns = std::min(r.start_ns, start);
    r.end_ns = std::max(r.end_ns, end);
    ++r.nodes;
    r.node_ns += s.dur_ns()[node.index()];
    if (IsKernelLike(s.gpu_kind()[node.index()])) r.kernel_ns += s.dur_ns()[node.index()];
    out.node_replay.emplace_back(node, it->second);
  }
  if (out.replays.empty()) return out;
  // Replays by start (then launch), and the nodes by slice id, remapped.
  std::vector<uint32_t> order(out.replays.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const GraphReplay &x = out.replays[a], &y = out.replays[b];
    return x.start_ns != y.start_ns ? x.start_ns < y.start_ns : x.launch < y.launch;
  });
  for (const GraphReplay& r : out.replays) out.max_replay_ns = std::max(out.max_replay_ns, r.end_ns - r.start_ns);
  std::vector<uint32_t> new_index(order.size());
  std::vector<GraphReplay> sorted(order.size());
  for (uint32_t k = 0; k < order.size(); ++k) {
    new_index[order[k]] = k;
    sorted[k] = out.replays[order[k]];
  }
  out.replays = std::move(sorted);
  for (auto& [node, replay] : out.node_replay) replay = new_index[replay];
  std::sort(out.node_replay.begin(), out.node_replay.end());
  // Recorded ids, the first stream, and each replay's name signature.
  const GraphArgReader reader(trace);
  out.node_id.assign(out.node_replay.size(), -1);
  std::vector<uint64_t> signature(out.replays.size(), 14695981039346656037ull);
  std::vector<bool> has_stream(out.replays.size(), false);
  int64_t max_recorded = 0;
  for (size_t k = 0; k < out.node_replay.size(); ++k) {
    const auto [node, replay] = out.node_replay[k];
    GraphReplay& r = out.replays[replay];
    const RecordedGraphIds ids = reader.Read(s.arg_set()[node.index()]);
    out.node_id[k] = ids.node_id;
    if (ids.graph_id > 0 && !r.graph_id_recorded) {
      r.graph_id = ids.graph_id;
      r.graph_id_recorded = true;
      max_recorded = std::max(max_recorded, ids.graph_id);
    }
    if (!has_stream[replay] && s.start_ns()[node.index()] == r.start_ns) {
      r.stream = s.track()[node.index()];
      has_stream[replay] = true;
    }
    signature[replay] = MixName(signature[replay], s.name()[node.index()]);
  }
  std::unordered_map<uint64_t, int64_t> derived;  // signature (with the node count) -> graph id
  for (size_t k = 0; k < out.replays.size(); ++k) {
    GraphReplay& r = out.replays[k];
    if (r.graph_id_recorded) continue;
    const uint64_t key = signature[k] ^ (uint64_t{r.nodes} * 0x9E3779B97F4A7C15ull);
    auto [it, inserted] = derived.try_emplace(key, max_recorded + static_cast<int64_t>(derived.size()) + 1);
    r.graph_id = it->second;
  }
  return out;
}

void AddGraphReplayOps(const Trace& trace, const GraphReplays& graphs, OpStats* ops) {
  if (graphs.empty()) return;
  const size_t first = ops->ops.size();
  for (const GraphReplay& r : graphs.replays) {
    const StringId name = trace.slices().name()[r.launch.index()];
    size_t e = first;
    while (e < ops->ops.size() && (ops->ops[e].name != name || ops->ops[e].graph_id != r.graph_id)) ++e;
    if (e == ops->ops.size()) {
      OpStat op;
      op.name = name;
      op.kind = OpKind::kGraphReplay;
      op.graph_id = r.graph_id;
      op.min_ns = op.max_ns = r.node_ns;
      ops->ops.push_back(op);
    }
    OpStat& op = ops->ops[e];
    ++op.count;
    op.total_ns += r.node_ns;
    op.self_ns += r.node_ns;
    op.min_ns = std::min(op.min_ns, r.node_ns);
    op.max_ns = std::max(op.max_ns, r.node_ns);
  }
  for (size_t e = first; e < ops->ops.size(); ++e) {
    OpStat& op = ops->ops[e];
    op.avg_ns = op.total_ns / static_cast<DurNs>(op.count);
    op.percent = ops->device_self_ns > 0
                     ? 100.0 * static_cast<double>(op.self_ns) / static_cast<double>(ops->device_self_ns)
                     : 0.0;
  }
  std::stable_sort(ops->ops.begin(), ops->ops.end(), [&](const OpStat& a, const OpStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    if (a.name != b.name) return trace.str(a.name) < trace.str(b.name);
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.graph_id < b.graph_id;
  });
}

}  // namespace stepline::analysis
