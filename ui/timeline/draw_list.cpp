// Level-of-detail draw list; see draw_list.h.
//
// Per depth the rows are in start order and do not overlap, so their ends are
// in order too. A run of thin slices is folded by binary search: from the run's
// current end, jump to the first slice starting at least min_slice_px later;
// everything skipped joins the run. Each jump moves at least min_slice_px on
// screen, so a depth costs O(width / min_slice_px * log n) however many slices
// it holds.
#include "ui/timeline/draw_list.h"

#include <algorithm>

namespace stepline::ui {
namespace {

float ClampPx(double x, double width) { return static_cast<float>(std::clamp(x, -2.0, width + 2.0)); }

}  // namespace

void BuildRowDrawList(const Trace& trace, std::span<const uint32_t> rows, uint16_t depth, const Viewport& viewport,
                      std::vector<SliceDrawItem>* out, const DrawListOptions& options) {
  const auto starts = trace.slices().start_ns();
  const auto durs = trace.slices().dur_ns();
  const TimeRange visible = viewport.visible;
  const double min_px = options.min_slice_px;
  const double width = viewport.width_px;
  auto end_of = [&](uint32_t row) { return starts[row] + durs[row]; };
  // Galloping search from `from`: the answer is usually a few thousand rows
  // ahead, and probing near `from` first keeps the memory touched local
  // (a plain binary search over millions of rows misses the cache each step).
  auto first_starting_at_or_after = [&](size_t from, TimeNs t) {
    size_t lo = from, step = 1, hi = from;
    while (hi < rows.size() && starts[rows[hi]] < t) {
      lo = hi + 1;
      hi = from + step;
      step *= 2;
    }
    hi = std::min(hi, rows.size());
    return static_cast<size_t>(
        std::lower_bound(rows.begin() + lo, rows.begin() + hi, t,
                         [&](uint32_t row, TimeNs v) { return starts[row] < v; }) -
        rows.begin());
  };

  // The first row that can be visible: the last one starting before the
  // window if it reaches into it, else the first starting inside.
  size_t k = first_starting_at_or_after(0, visible.start_ns);
  if (k > 0 && end_of(rows[k - 1]) > visible.start_ns) --k;
  while (k < rows.size() && starts[rows[k]] < visible.end_ns) {
    const uint32_t row = rows[k];
    const double x0 = viewport.TimeToX(starts[row]);
    double x1 = viewport.TimeToX(end_of(row));
    if (x1 - x0 >= min_px) {
      out->push_back({ClampPx(x0, width), ClampPx(x1, width), depth, 1, SliceId(row)});
      ++k;
      continue;
    }
    const size_t first = k;
    ++k;
    for (;;) {
      const size_t j = first_starting_at_or_after(k, viewport.XToTime(x1 + min_px));
      if (j == k) break;  // the next slice starts a visible gap later
      // Every skipped row starts within min_px of the run's end, and rows of
      // one depth do not overlap, so only the last skipped row can be wide:
      // a wide one ends the run and is drawn on its own.
      const uint32_t last = rows[j - 1];
      const double last_x1 = viewport.TimeToX(end_of(last));
      if (last_x1 - viewport.TimeToX(starts[last]) >= min_px) {
        k = j - 1;
        break;
      }
      x1 = std::max(x1, last_x1);
      k = j;
      if (starts[last] >= visible.end_ns) break;
    }
    // A run shows at least min_px wide so it stays visible.
    out->push_back({ClampPx(x0, width), ClampPx(std::max(x1, x0 + min_px), width), depth,
                    static_cast<uint32_t>(k - first), SliceId(rows[first])});
  }
}

void BuildSliceDrawList(const Trace& trace, const TrackDepthIndex& index, TrackId track, const Viewport& viewport,
                        std::vector<SliceDrawItem>* out, const DrawListOptions& options) {
  for (size_t d = 0; d < index.depth_count(track); ++d) {
    BuildRowDrawList(trace, index.Rows(track, d), static_cast<uint16_t>(d), viewport, out, options);
  }
}

}  // namespace stepline::ui
