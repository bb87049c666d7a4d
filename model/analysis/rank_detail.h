// RankDetail: the slices of one rank's ranks-view lanes, kept
// for a few ranks at a time so the ranks timeline can draw them one by one
// when zoomed in past what the busy summary (rank_lanes.h) resolves, after
// the rank's Trace is freed: a few columns per lane instead of the model.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/analysis/rank_lanes.h"

namespace stepline::analysis {

// One lane's slices, the rank's own clock. Columns of one row per slice:
//   start_ns    sorted ascending (ties: the trace's order)
//   end_ns      >= start_ns
//   max_end_ns  the largest end_ns of rows [0, i]: non-decreasing, so the
//               first row that can reach a time is a binary search even
//               where slices overlap (a merged "other streams" lane)
//   name        index into RankDetail::names
//   track       the slice's stream or thread name ("stream 7" when unnamed),
//               index into RankDetail::names
struct DetailLane {
  std::vector<TimeNs> start_ns, end_ns, max_end_ns;
  std::vector<uint32_t> name, track;

  size_t size() const { return start_ns.size(); }
  // Rows [first, last) that may overlap own-clock [t0, t1): every row that
  // does is inside; a row inside that ends at or before t0 does not (skip
  // it). Two binary searches.
  std::pair<size_t, size_t> RowsIn(TimeNs t0, TimeNs t1) const;
};

struct RankDetail {
  // The compute lanes in RankLanes order: one per RankLanes::compute_streams
  // entry, else one lane of every compute kernel.
  std::vector<DetailLane> compute;
  DetailLane collective;  // the collective kernels
  DetailLane host;        // the main thread's top-level slices (RankLaneSources)
  std::vector<std::string> names;  // interned slice names
  size_t bytes() const;  // heap held, roughly, for the memory budget
};

// The detail of one rank, from the same sources as its summary.
RankDetail ExtractRankDetail(const Trace& trace, const TraceAnalysis& analysis);

}  // namespace stepline::analysis
