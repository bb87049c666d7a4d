// Op statistics (see op_stats.h). One pass gathers per-slice self time (a
// child's time, clipped to its parent, is taken off the parent), a second
// groups by (name, kind) through a per-name index into the stats vector.
#include "model/analysis/op_stats.h"

#include <algorithm>

#include "model/analysis/profiler_spans.h"
#include "model/analysis/self_time.h"

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
  for (const OpStat& op : stats->ops)
    (IsDeviceOpKind(op.kind) ? stats->device_self_ns : stats->host_self_ns) += op.self_ns;
  double host_cum = 0, device_cum = 0;
  for (OpStat& op : stats->ops) {
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
  }
  return "?";
}

OpStats ComputeOpStats(const Trace& trace) {
  OpStats stats;
  const SliceTable& s = trace.slices();
  const std::vector<DurNs> self = SelfTimes(trace);
  std::vector<uint32_t> first_entry(trace.strings().size(), kNoEntry);  // per name
  std::vector<uint32_t> next_entry;                                     // same name, other kind
  ProfilerSpanFilter profiler_span(trace);
  for (size_t i = 0; i < s.size(); ++i) {
    OpKind kind;
    if (!KindOf(trace, static_cast<uint32_t>(i), profiler_span, &kind)) continue;
    const StringId name = s.name()[i];
    uint32_t e = first_entry[name.index()];
    while (e != kNoEntry && stats.ops[e].kind != kind) e = next_entry[e];
    if (e == kNoEntry) {
      e = static_cast<uint32_t>(stats.ops.size());
      OpStat op;
      op.name = name;
      op.kind = kind;
      op.min_ns = s.dur_ns()[i];
      op.max_ns = s.dur_ns()[i];
      stats.ops.push_back(op);
      next_entry.push_back(first_entry[name.index()]);
      first_entry[name.index()] = e;
    }
    OpStat& op = stats.ops[e];
    const DurNs dur = s.dur_ns()[i];
    ++op.count;
    op.total_ns += dur;
    op.self_ns += self[i];
    op.min_ns = std::min(op.min_ns, dur);
    op.max_ns = std::max(op.max_ns, dur);
  }
  for (OpStat& op : stats.ops) op.avg_ns = op.total_ns / static_cast<DurNs>(op.count);
  std::sort(stats.ops.begin(), stats.ops.end(), [&](const OpStat& a, const OpStat& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    if (a.name != b.name) return trace.str(a.name) < trace.str(b.name);
    return a.kind < b.kind;
  });
  FillPercentages(&stats);
  return stats;
}

}  // namespace stepline::analysis
