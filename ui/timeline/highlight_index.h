// HighlightIndex: answers "does this folded run hold a highlighted slice?"
// for search matches and op occurrences, so a highlight stays visible when
// its slice is folded into a grey block at zoom-out.
//
// A run is a range rows[first, first + count) of one row list: a depth of a
// track (TrackDepthIndex) or a lane of a device's copy row (CopyRows). Within
// a track depth the rows are in start order and so in id order (the slice
// table is sorted by track, then start), and ids of one track are contiguous;
// so the depth-d slices with ids in [rows[first], rows[last]] are exactly the
// run. Keys (depth << 32 | id), sorted, answer that with one binary search.
// Copy lanes mix streams, so their ids are not in order: a run there is
// checked slice by slice, up to kMaxLaneScan slices (past that it is shown
// unhighlighted: such a run is under a pixel wide at any zoom that shows it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

class HighlightIndex {
 public:
  static constexpr uint32_t kMaxLaneScan = 512;

  // `rows`: highlighted slice rows, ascending (ViewState::search_matches).
  void Build(const Trace& trace, std::span<const uint32_t> rows);
  bool empty() const { return rows_.empty(); }
  bool Contains(uint32_t row) const;
  // Whether rows[first, first + count) of a track depth list at `depth` holds one.
  bool AnyInDepthRun(std::span<const uint32_t> rows, size_t first, size_t count, uint16_t depth) const;
  // The same for a copy lane (any order), scanning at most kMaxLaneScan rows.
  bool AnyInLaneRun(std::span<const uint32_t> rows, size_t first, size_t count) const;

 private:
  std::vector<uint32_t> rows_;  // ascending
  std::vector<uint64_t> keys_;  // depth << 32 | row, ascending
};

}  // namespace stepline::ui
