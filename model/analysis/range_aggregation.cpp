// AggregateSlicesInRange; see range_aggregation.h.
#include "model/analysis/range_aggregation.h"

#include <algorithm>
#include <unordered_map>

#include "model/analysis/profiler_spans.h"
#include "model/analysis/self_time.h"

namespace stepline::analysis {

std::vector<RangeAggregateRow> AggregateSlicesInRange(const Trace& trace, TimeRange range,
                                                      const std::vector<TrackId>& only) {
  std::vector<RangeAggregateRow> rows;
  if (range.empty()) return rows;
  const SliceTable& s = trace.slices();
  std::unordered_map<uint32_t, size_t> index_of_name;
  std::vector<DurNs> clipped(s.size(), -1);  // per slice inside a visited track
  ProfilerSpanFilter profiler_span(trace);
  auto visit_track = [&](TrackId t) {
    const auto& r = trace.tracks().ranges(t);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      const TimeNs st = s.start_ns()[i];
      if (st >= range.end_ns) break;  // sorted by start within the track
      const DurNs in = range.OverlapNs({st, st + s.dur_ns()[i]});
      const bool instant_inside = s.dur_ns()[i] == 0 && range.Contains(st);
      if (in <= 0 && !instant_inside) continue;
      if (profiler_span(i)) continue;  // not an op (profiler_spans.h)
      clipped[i] = in;
      auto [it, inserted] = index_of_name.try_emplace(s.name()[i].value, rows.size());
      if (inserted) rows.push_back({s.name()[i], 0, 0, 0});
      RangeAggregateRow& row = rows[it->second];
      ++row.count;
      row.total_ns += in;
      row.self_ns += in;
      const SliceId p = s.parent()[i];
      // Parents precede children, so the parent's row already exists.
      if (!p.is_none() && clipped[p.index()] >= 0) {
        // The self-time rule (self_time.h), the window being the range's part of the parent.
        const TimeRange window{std::max(range.start_ns, s.start_ns()[p.index()]), std::min(range.end_ns, s.end_ns(p))};
        rows[index_of_name[s.name()[p.index()].value]].self_ns -= ChildTimeNs(st, s.dur_ns()[i], window);
      }
    }
  };
  if (only.empty()) {
    for (size_t t = 0; t < trace.tracks().size(); ++t) visit_track(TrackId::FromIndex(t));
  } else {
    for (TrackId t : only) visit_track(t);
  }
  std::sort(rows.begin(), rows.end(), [](const RangeAggregateRow& a, const RangeAggregateRow& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return rows;
}

}  // namespace stepline::analysis
