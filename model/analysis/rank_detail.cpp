// RankDetail: one rank's lane slices (see rank_detail.h).
#include "model/analysis/rank_detail.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {

std::pair<size_t, size_t> DetailLane::RowsIn(TimeNs t0, TimeNs t1) const {
  const size_t first =
      static_cast<size_t>(std::upper_bound(max_end_ns.begin(), max_end_ns.end(), t0) - max_end_ns.begin());
  const size_t last = static_cast<size_t>(std::lower_bound(start_ns.begin(), start_ns.end(), t1) - start_ns.begin());
  return {first, std::max(first, last)};
}

size_t RankDetail::bytes() const {
  size_t n = 0;
  const auto lane = [&](const DetailLane& l) { n += l.size() * (3 * sizeof(TimeNs) + 2 * sizeof(uint32_t)); };
  for (const DetailLane& l : compute) lane(l);
  lane(collective);
  lane(host);
  for (const std::string& s : names) n += sizeof(std::string) + s.capacity();
  return n;
}

namespace {

// Collects one lane's rows, then sorts them by start and fills max_end_ns.
struct LaneBuilder {
  struct Row {
    TimeNs start_ns, end_ns;
    uint32_t name, track;
  };
  std::vector<Row> rows;
  DetailLane Finish() {
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.start_ns < b.start_ns; });
    DetailLane l;
    l.start_ns.reserve(rows.size());
    l.end_ns.reserve(rows.size());
    l.max_end_ns.reserve(rows.size());
    l.name.reserve(rows.size());
    l.track.reserve(rows.size());
    TimeNs max_end = INT64_MIN;
    for (const Row& r : rows) {
      max_end = std::max(max_end, r.end_ns);
      l.start_ns.push_back(r.start_ns);
      l.end_ns.push_back(r.end_ns);
      l.max_end_ns.push_back(max_end);
      l.name.push_back(r.name);
      l.track.push_back(r.track);
    }
    return l;
  }
};

}  // namespace

RankDetail ExtractRankDetail(const Trace& trace, const TraceAnalysis& analysis) {
  RankDetail d;
  const RankLaneSources src = FindRankLaneSources(trace, analysis);
  const SliceTable& s = trace.slices();
  std::unordered_map<uint32_t, uint32_t> name_index;  // StringId -> names index
  const auto intern = [&](uint32_t slice) {
    const StringId id = s.name()[slice];
    auto [it, fresh] = name_index.try_emplace(id.index(), static_cast<uint32_t>(d.names.size()));
    if (fresh) d.names.emplace_back(trace.str(id));
    return it->second;
  };
  std::unordered_map<uint32_t, uint32_t> track_index;  // TrackId -> names index of its name
  const auto track_name = [&](uint32_t slice) {
    const TrackId track = s.track()[slice];
    auto [it, fresh] = track_index.try_emplace(track.index(), 0);
    if (fresh) {
      it->second = static_cast<uint32_t>(d.names.size());
      d.names.push_back(RankTrackName(trace, track));
    }
    return it->second;
  };
  std::map<uint32_t, size_t> lane_of_track;
  for (size_t l = 0; l < src.compute_tracks.size(); ++l) {
    for (uint32_t track : src.compute_tracks[l]) lane_of_track[track] = l;
  }
  std::vector<LaneBuilder> compute(std::max<size_t>(1, src.compute_tracks.size()));
  LaneBuilder collective, host;
  if (const DeviceAnalysis* primary = analysis.primary()) {
    for (const DeviceOp& op : primary->activity.ops) {
      const uint32_t i = op.slice.index();
      if (op.kind == GpuKind::kCollective) collective.rows.push_back({op.start_ns, op.end_ns, intern(i), track_name(i)});
      if (op.kind != GpuKind::kKernel) continue;
      size_t lane = 0;
      if (!src.compute_tracks.empty()) {
        auto it = lane_of_track.find(s.track()[i].index());
        if (it == lane_of_track.end()) continue;
        lane = it->second;
      }
      compute[lane].rows.push_back({op.start_ns, op.end_ns, intern(i), track_name(i)});
    }
  }
  for (uint32_t i : src.host_slices) host.rows.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i], intern(i), track_name(i)});
  for (LaneBuilder& b : compute) d.compute.push_back(b.Finish());
  d.collective = collective.Finish();
  d.host = host.Finish();
  return d;
}

}  // namespace stepline::analysis
