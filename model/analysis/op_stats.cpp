// Op statistics (see op_stats.h). One pass gathers per-slice self time (a
// child's time, clipped to its parent, is taken off the parent), a second
// groups by (name, kind) through a per-name index into the stats vector.
#include "model/analysis/op_stats.h"

#include <algorithm>

#include "model/analysis/profiler_spans.h"
#include "model/analysis/self_time.h"
#include "model/analysis/step_set.h"

namespace stepline::analysis {
namespace {

constexpr uint32_t kNoEntry = UINT32_MAX;

// The op kind of a slice, or false for slices that are not ops (async rows,
// derived rows, GPU annotations, counters).
bool KindOf(const Trace& trace, uint32_t i, ProfilerSpanFilter& profiler_span, OpKind* kind) {
  switch (trace.slices().gpu_kind()[i]) {
    case GpuKind::kKernel:
    case GpuKind::kCollective: *kind = OpKind::kKernel; return true;
    case GpuKind::kMemcpyH2D:
    case GpuKind::kMemcpyD2H:
    case GpuKind::kMemcpyD2D:
    case GpuKind::kMemcpyOther: *kind = OpKind::kMemcpy; return true;
    case GpuKind::kMemset: *kind = OpKind::kMemset; return true;
    case GpuKind::kNone: break;
  }
  if (trace.tracks().kind(trace.slices().track()[i]) != TrackKind::kHostThread) return false;
  if (profiler_span(i)) return false;  // the profiler's own span wraps everything
  *kind = OpKind::kHostOp;
  return true;
}

void FillPercentages(OpStats* stats) {
  for (const OpStat& op : stats->ops) {
    if (op.kind != OpKind::kGraphReplay) (IsDeviceOpKind(op.kind) ? stats->device_self_ns : stats->host_self_ns) += op.self_ns;
  }
  double host_cum = 0, device_cum = 0;
  for (OpStat& op : stats->ops) {
    if (op.kind == OpKind::kGraphReplay) continue;  // AddGraphReplayOps
    const bool device = IsDeviceOpKind(op.kind);
    const DurNs denom = device ? stats->device_self_ns : stats->host_self_ns;
    op.percent = denom > 0 ? 100.0 * static_cast<double>(op.self_ns) / static_cast<double>(denom) : 0.0;
    double& cum = device ? device_cum : host_cum;
    cum += op.percent;
    op.cumulative_percent = cum;
  }
}

}  // namespace

std::string_view OpKindName(OpKind k) {
  switch (k) {
    case OpKind::kHostOp: return "host_op";
    case OpKind::kKernel: return "kernel";
    case OpKind::kMemcpy: return "memcpy";
    case OpKind::kMemset: return "memset";
    case OpKind::kGraphReplay: return "graph_replay";
  }
  return "?";
}

OpStats ComputeOpStats(const Trace& trace, const StepSet* steps) {
  OpStats stats;
  const SliceTable& s = trace.slices();
  // Per slice: 1 when a step of `steps` was made from it; per name: ProfilerStep#N.
  std::vector<uint8_t> is_step_slice;
  if (steps != nullptr) {
    for (const Step& step : steps->steps) {
      if (step.slice.is_none()) continue;
      if (is_step_slice.empty()) is_step_slice.assign(s.size(), 0);
      is_step_slice[step.slice.index()] = 1;
    }
  }
  // Steps of a "Steps" row (XSpace, or the NVTX / roctx ranges the loaders
  // turned into one) have no marker slice among the host's: the host range
  // they came from is the one with the step's exact extent.
  std::vector<std::pair<TimeNs, DurNs>> row_steps;
  if (steps != nullptr) {
    for (const Step& step : steps->steps) {
      if (!step.slice.is_none() && trace.tracks().kind(s.track()[step.slice.index()]) != TrackKind::kHostThread) {
        row_steps.emplace_back(step.start_ns, step.dur_ns);
      }
    }
    std::sort(row_steps.begin(), row_steps.end());
  }
  std::vector<int8_t> marker_name(trace.strings().size(), -1);
  const auto is_marker = [&](size_t i) {
    if (!is_step_slice.empty() && is_step_slice[i] != 0) return true;
    if (!row_steps.empty() && trace.tracks().kind(s.track()[i]) == TrackKind::kHostThread &&
        std::binary_search(row_steps.begin(), row_steps.end(), std::make_pair(s.start_ns()[i], s.dur_ns()[i]))) {
      return true;
    }
    int8_t& known = marker_name[s.name()[i].index()];
    if (known < 0) known = trace.str(s.name()[i]).starts_with("ProfilerStep#") ? 1 : 0;
    return known == 1;
  };
  std::vector<uint8_t> entry_is_marker;  // per stats.ops entry
  const std::vector<DurNs> self = SelfTimes(trace);
  std::vector<uint32_t> first_entry(trace.strings().size(), kNoEntry);  // per name
  std::vector<uint32_t> next_entry;                                     // same name, other kind
  ProfilerSpanFilter profiler_span(trace);
  for (size_t i = 0; i < s.size(); ++i) {
    OpKind kind;
    if (!KindOf(trace, static_cast<uint32_t>(i), profiler_span, &kind)) continue;
    const StringId name = s.name()[i];
    const uint8_t marker = is_marker(i) ? 1 : 0;
    uint32_t e = first_entry[name.index()];
    while (e != kNoEntry && (stats.ops[e].kind != kind || entry_is_marker[e] != marker)) e = next_entry[e];
    if (e == kNoEntry) {
      e = static_cast<uint32_t>(stats.ops.size());
      OpStat op;
      op.name = name;
      op.kind = kind;
      op.min_ns = s.dur_ns()[i];
      op.max_ns = s.dur_ns()[i];
      stats.ops.push_back(op);
      entry_is_marker.push_back(marker);
      next_entry.push_back(first_entry[name.index()]);
      first_entry[name.index()] = e;
    }
    OpStat& op = stats.ops[e];
    op.collective |= s.gpu_kind()[i] == GpuKind::kCollective;
    const DurNs dur = s.dur_ns()[i];
    ++op.count;
    op.total_ns += dur;
    // A kernel, copy or memset never contains another: its self time is its
    // duration. (Kernels whose recorded times overlap a little on one stream
    // nest as parent and child, and the child's time was taken off.)
    op.self_ns += IsDeviceOpKind(kind) ? dur : self[i];
    op.min_ns = std::min(op.min_ns, dur);
    op.max_ns = std::max(op.max_ns, dur);
  }
  for (OpStat& op : stats.ops) op.avg_ns = op.total_ns / static_cast<DurNs>(op.count);
  std::vector<OpStat> ops;
  ops.reserve(stats.ops.size());
  for (size_t e = 0; e < stats.ops.size(); ++e) {
    (entry_is_marker[e] != 0 ? stats.step_markers : ops).push_back(stats.ops[e]);
  }
  stats.ops = std::move(ops);
  const auto by_total = [&](const OpStat& a, const OpStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    if (a.name != b.name) return trace.str(a.name) < trace.str(b.name);
    return a.kind < b.kind;
  };
  std::sort(stats.ops.begin(), stats.ops.end(), by_total);
  std::sort(stats.step_markers.begin(), stats.step_markers.end(), by_total);
  FillPercentages(&stats);
  return stats;
}

}  // namespace stepline::analysis
