// RankLanes: the busy bins of one rank's lanes (see rank_lanes.h).
#include "model/analysis/rank_lanes.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "model/analysis/busy_bins.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {

TimeRange RankLanes::BinRange(size_t b) const {
  const double bin_ns = static_cast<double>(range.duration_ns()) / static_cast<double>(std::max<size_t>(1, bins()));
  return {range.start_ns + static_cast<TimeNs>(std::llround(static_cast<double>(b) * bin_ns)),
          range.start_ns + static_cast<TimeNs>(std::llround(static_cast<double>(b + 1) * bin_ns))};
}

float RankLanes::BusyIn(RankLane lane, TimeNs t0, TimeNs t1) const {
  return BusyIn(busy[static_cast<size_t>(lane)], t0, t1);
}

float RankLanes::BusyIn(const std::vector<uint8_t>& v, TimeNs t0, TimeNs t1) const {
  if (v.empty() || range.empty()) return 0.f;
  t0 = std::max(t0, range.start_ns);
  t1 = std::min(t1, range.end_ns);
  if (t1 <= t0) return 0.f;
  // Bin positions as fractions, so a pixel narrower than a bin reads that
  // bin and a wider one the overlap-weighted mean of the bins it spans.
  const double bin_ns = static_cast<double>(range.duration_ns()) / static_cast<double>(v.size());
  const double f0 = static_cast<double>(t0 - range.start_ns) / bin_ns;
  const double f1 = static_cast<double>(t1 - range.start_ns) / bin_ns;
  const size_t b0 = std::min(v.size() - 1, static_cast<size_t>(f0));
  const size_t b1 = std::min(v.size() - 1, static_cast<size_t>(std::max(f0, std::ceil(f1) - 1)));
  double sum = 0, weight = 0;
  for (size_t b = b0; b <= b1; ++b) {
    const double w = std::min(f1, static_cast<double>(b + 1)) - std::max(f0, static_cast<double>(b));
    if (w <= 0) continue;
    sum += w * v[b];
    weight += w;
  }
  return weight > 0 ? static_cast<float>(sum / weight / 255.0) : 0.f;
}

std::vector<uint8_t> BusyShareBins(std::vector<Interval> intervals, TimeRange range, size_t bins) {
  const BusyBins exact = ComputeBusyBins(std::move(intervals), range, bins);
  std::vector<uint8_t> out(exact.fraction.size());
  for (size_t b = 0; b < out.size(); ++b) {
    out[b] = static_cast<uint8_t>(std::lround(std::clamp(exact.fraction[b], 0.f, 1.f) * 255.f));
  }
  return out;
}

RankLanes SummarizeRankLanes(const Trace& trace, const TraceAnalysis& analysis, size_t bins) {
  RankLanes lanes;
  lanes.range = trace.span();
  for (const Step& s : analysis.steps.steps) lanes.steps.push_back({s.start_ns, s.end_ns()});
  std::vector<Interval> compute, collective, host;
  std::map<uint32_t, std::vector<Interval>> by_stream;  // compute kernels per stream track
  if (const DeviceAnalysis* primary = analysis.primary()) {
    for (const DeviceOp& op : primary->activity.ops) {
      if (op.kind == GpuKind::kKernel) {
        compute.push_back({op.start_ns, op.end_ns});
        by_stream[trace.slices().track()[op.slice.index()].index()].push_back({op.start_ns, op.end_ns});
      }
      if (op.kind == GpuKind::kCollective) collective.push_back({op.start_ns, op.end_ns});
    }
  }
  if (by_stream.size() >= 2) {
    // The busiest streams (merged time) keep a lane each, in stream order.
    std::vector<std::pair<DurNs, uint32_t>> totals;
    for (auto& [track, intervals] : by_stream) {
      intervals = MergeIntervals(std::move(intervals));
      DurNs ns = 0;
      for (const Interval& iv : intervals) ns += iv.dur_ns();
      totals.emplace_back(ns, track);
    }
    std::sort(totals.begin(), totals.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t own = totals.size() <= kRankStreamLanes ? totals.size() : kRankStreamLanes - 1;
    std::vector<uint32_t> kept;
    for (size_t i = 0; i < own; ++i) kept.push_back(totals[i].second);
    std::sort(kept.begin(), kept.end());
    for (uint32_t track : kept) {
      const std::string_view name = trace.str(trace.tracks().name(TrackId(track)));
      lanes.compute_streams.push_back(
          {name.empty() ? "stream " + std::to_string(trace.tracks().tid(TrackId(track))) : std::string(name),
           BusyShareBins(std::move(by_stream[track]), lanes.range, bins)});
    }
    if (own < totals.size()) {
      std::vector<Interval> rest;
      for (size_t i = own; i < totals.size(); ++i) {
        const auto& v = by_stream[totals[i].second];
        rest.insert(rest.end(), v.begin(), v.end());
      }
      lanes.compute_streams.push_back({std::to_string(totals.size() - own) + " other streams",
                                       BusyShareBins(std::move(rest), lanes.range, bins)});
    }
  }
  // The main thread: the host thread with the most top-level time, which
  // is the training loop's rather than a DataLoader worker or a helper. A
  // step marker (ProfilerStep#N) would cover the whole lane: its children
  // count as top-level instead.
  const SliceTable& s = trace.slices();
  std::vector<bool> is_step(s.size(), false);
  for (const Step& st : analysis.steps.steps) {
    if (!st.slice.is_none() && st.slice.index() < s.size()) is_step[st.slice.index()] = true;
  }
  const auto top_level = [&](uint32_t i) {
    if (is_step[i]) return false;
    if (s.depth()[i] == 0) return true;
    const SliceId parent = s.parent()[i];
    return s.depth()[i] == 1 && !parent.is_none() && is_step[parent.index()];
  };
  DurNs best_ns = 0;
  for (uint32_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const TrackTable::Ranges& r = trace.tracks().ranges(track);
    std::vector<Interval> top;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.dur_ns()[i] > 0 && top_level(i)) top.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
    }
    DurNs ns = 0;
    for (const Interval& iv : MergeIntervals(top)) ns += iv.dur_ns();
    if (ns > best_ns) {
      best_ns = ns;
      host = std::move(top);
      const std::string_view name = trace.str(trace.tracks().name(track));
      lanes.host_thread = name.empty() ? "thread " + std::to_string(trace.tracks().tid(track)) : std::string(name);
    }
  }
  lanes.busy[static_cast<size_t>(RankLane::kCompute)] = BusyShareBins(std::move(compute), lanes.range, bins);
  lanes.busy[static_cast<size_t>(RankLane::kCollective)] = BusyShareBins(std::move(collective), lanes.range, bins);
  lanes.busy[static_cast<size_t>(RankLane::kHost)] = BusyShareBins(std::move(host), lanes.range, bins);
  return lanes;
}

}  // namespace stepline::analysis
