// The ranks timeline's detail mode: when the view is zoomed in
// so far that one bin of a rank's busy summary (kRankLaneBins over its
// trace span) is wider than kDetailMinBinPx, the summary has nothing more to
// show, and a rank whose RankDetail is loaded is drawn slice by slice
// instead, in the same lanes, on the same aligned clock (own time minus the
// rank's clock offset). Which ranks to load, where each slice goes (only the
// visible ones, sub-pixel neighbours coalesced), and what is under the
// mouse are pure functions here, tested without a window.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "model/analysis/rank_detail.h"
#include "ui/ranks/ranks_view_input.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

// A summary bin wider than this many pixels repeats its value over several
// pixel columns: past that the summary shows no more detail, so the slices
// take over. 1 px: the first zoom step that would stretch a bin.
inline constexpr double kDetailMinBinPx = 1.0;

// Whether `lanes` (one rank's summary) is too coarse for `view`: one of its
// bins spans more than kDetailMinBinPx. False for a rank without a summary.
bool SummaryTooCoarse(const Viewport& view, const analysis::RankLanes& lanes);

// Whether rank `input` has a trace to load detail from: not one read from
// a report (those carry no summary either), and not refused by `details`.
bool RankHasTrace(const RanksViewInput& input, size_t input_rank);

// The ranks to load for the rows [first_row, end_row) of the table order
// (analysis->ranks) on screen: those whose summary is too coarse and that
// have a trace, top first, at most `budget` (more would evict each other).
std::vector<size_t> RanksToLoad(const RanksViewInput& input, const Viewport& view, size_t first_row, size_t end_row,
                                size_t budget);

// One rect of a detail lane, x in px from the lanes' left edge.
struct DetailRect {
  float x0 = 0, x1 = 0;
  uint32_t row = 0;     // the lane row (the first one of a merged rect)
  uint32_t slices = 1;  // > 1: several sub-pixel slices drawn as one
};

// The rects of `lane`'s slices visible in `view` for a rank whose clock is
// `offset_ns` ahead: slice [s, e) of its own clock is drawn at [s - offset,
// e - offset). Only rows overlapping the view are visited (DetailLane::RowsIn);
// slices narrower than a pixel merge with neighbours less than a pixel away.
// x is clamped to [-1, width + 1].
std::vector<DetailRect> LayoutDetailLane(const analysis::DetailLane& lane, const Viewport& view, DurNs offset_ns);

// The row under own-clock time `t` (within `slop_ns`), the shortest one when
// several overlap; nullopt when none.
std::optional<uint32_t> DetailRowAt(const analysis::DetailLane& lane, TimeNs t, DurNs slop_ns);

// Lane `li` of a group (RanksTimelineLayout order: compute lanes, the
// collective lane, the main thread) in `detail`; null when the rank has no
// such compute lane.
const analysis::DetailLane* DetailLaneOf(const analysis::RankDetail& detail, int li, int compute_lanes);

}  // namespace stepline::ui
