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

std::string RankTrackName(const Trace& trace, TrackId track) {
  const std::string_view name = trace.str(trace.tracks().name(track));
  if (!name.empty()) return std::string(name);
  const bool host = trace.tracks().kind(track) == TrackKind::kHostThread;
  return (host ? "thread " : "stream ") + std::to_string(trace.tracks().tid(track));
}

RankLaneSources FindRankLaneSources(const Trace& trace, const TraceAnalysis& analysis) {
  RankLaneSources src;
  std::map<uint32_t, DurNs> by_stream;  // merged compute time per stream track
  if (const DeviceAnalysis* primary = analysis.primary()) {
    std::map<uint32_t, std::vector<Interval>> intervals;
    for (const DeviceOp& op : primary->activity.ops) {
      if (op.kind == GpuKind::kKernel) {
        intervals[trace.slices().track()[op.slice.index()].index()].push_back({op.start_ns, op.end_ns});
      }
    }
    for (auto& [track, v] : intervals) {
      DurNs ns = 0;
      for (const Interval& iv : MergeIntervals(std::move(v))) ns += iv.dur_ns();
      by_stream[track] = ns;
    }
  }
  if (by_stream.size() >= 2) {
    // The busiest streams (merged time) keep a lane each, in stream order.
    std::vector<std::pair<DurNs, uint32_t>> totals;
    for (const auto& [track, ns] : by_stream) totals.emplace_back(ns, track);
    std::sort(totals.begin(), totals.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    const size_t own = totals.size() <= kRankStreamLanes ? totals.size() : kRankStreamLanes - 1;
    std::vector<uint32_t> kept;
    for (size_t i = 0; i < own; ++i) kept.push_back(totals[i].second);
    std::sort(kept.begin(), kept.end());
    for (uint32_t track : kept) {
      src.compute_tracks.push_back({track});
      src.compute_names.push_back(RankTrackName(trace, TrackId(track)));
    }
    if (own < totals.size()) {
      std::vector<uint32_t> rest;
      for (size_t i = own; i < totals.size(); ++i) rest.push_back(totals[i].second);
      std::sort(rest.begin(), rest.end());
      src.compute_tracks.push_back(std::move(rest));
      src.compute_names.push_back(std::to_string(totals.size() - own) + " other streams");
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
    std::vector<uint32_t> top;
    std::vector<Interval> spans;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.dur_ns()[i] > 0 && top_level(i)) {
        top.push_back(i);
        spans.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
      }
    }
    DurNs ns = 0;
    for (const Interval& iv : MergeIntervals(std::move(spans))) ns += iv.dur_ns();
    if (ns > best_ns) {
      best_ns = ns;
      src.host_slices = std::move(top);
      src.host_thread = RankTrackName(trace, track);
    }
  }
  return src;
}

RankLanes SummarizeRankLanes(const Trace& trace, const TraceAnalysis& analysis, size_t bins) {
  RankLanes lanes;
  lanes.range = trace.span();
  for (const Step& s : analysis.steps.steps) lanes.steps.push_back({s.start_ns, s.end_ns()});
  const RankLaneSources src = FindRankLaneSources(trace, analysis);
  std::map<uint32_t, size_t> lane_of_track;
  for (size_t l = 0; l < src.compute_tracks.size(); ++l) {
    for (uint32_t track : src.compute_tracks[l]) lane_of_track[track] = l;
  }
  std::vector<Interval> compute, collective, host;
  std::vector<std::vector<Interval>> by_lane(src.compute_tracks.size());
  if (const DeviceAnalysis* primary = analysis.primary()) {
    for (const DeviceOp& op : primary->activity.ops) {
      if (op.kind == GpuKind::kKernel) {
        compute.push_back({op.start_ns, op.end_ns});
        auto it = lane_of_track.find(trace.slices().track()[op.slice.index()].index());
        if (it != lane_of_track.end()) by_lane[it->second].push_back({op.start_ns, op.end_ns});
      }
      if (op.kind == GpuKind::kCollective) collective.push_back({op.start_ns, op.end_ns});
    }
  }
  for (size_t l = 0; l < by_lane.size(); ++l) {
    lanes.compute_streams.push_back({src.compute_names[l], BusyShareBins(std::move(by_lane[l]), lanes.range, bins)});
  }
  const SliceTable& s = trace.slices();
  for (uint32_t i : src.host_slices) host.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
  lanes.host_thread = src.host_thread;
  lanes.busy[static_cast<size_t>(RankLane::kCompute)] = BusyShareBins(std::move(compute), lanes.range, bins);
  lanes.busy[static_cast<size_t>(RankLane::kCollective)] = BusyShareBins(std::move(collective), lanes.range, bins);
  lanes.busy[static_cast<size_t>(RankLane::kHost)] = BusyShareBins(std::move(host), lanes.range, bins);
  return lanes;
}

}  // namespace stepline::analysis
