// Level-of-detail draw list; see draw_list.h.
//
// Per depth the rows are in start order and do not overlap, so their ends are
// in order too. A run of thin slices is folded by binary search: from the run's
// current end, jump to the first slice starting at least min_slice_px later;
// everything skipped joins the run. Each jump moves at least min_slice_px on
// screen, so a depth costs O(width / min_slice_px * log n) however many slices
// it holds.
//
// Counter columns: samples in ts order map to x in order, so the samples
// starting in one pixel column are a contiguous run, found by a galloping
// search that starts from the previous column's sample count (neighbouring
// columns usually hold about as many); the range arg-max gives their highest
// value. Between runs the last
// sample's value is held. Per column: one search, one query, one write.
#include "ui/timeline/draw_list.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/timeline/gallop.h"
#include "ui/timeline/sampled_search.h"

namespace stepline::ui {
namespace {

float ClampPx(double x, double width) { return static_cast<float>(std::clamp(x, -2.0, width + 2.0)); }

}  // namespace

void BuildRowDrawList(const Trace& trace, std::span<const uint32_t> rows, std::span<const TimeNs> start_samples,
                      uint16_t depth, const Viewport& viewport, std::vector<SliceDrawItem>* out,
                      const DrawListOptions& options) {
  const auto starts = trace.slices().start_ns();
  const auto durs = trace.slices().dur_ns();
  const TimeRange visible = viewport.visible;
  const double min_px = options.min_slice_px;
  const double width = viewport.width_px;
  auto end_of = [&](uint32_t row) { return starts[row] + durs[row]; };
  // The answer is usually a few thousand rows ahead: the sampled starts find
  // the stretch of kSampleStride rows that holds it without touching the
  // rows in between (sampled_search.h).
  auto start_at = [&](size_t i) { return starts[rows[i]]; };
  auto first_starting_at_or_after = [&](size_t from, TimeNs t) {
    return SampledPartition(start_samples, from, rows.size(), start_at, [&](TimeNs start) { return start < t; });
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
      out->push_back({ClampPx(x0, width), ClampPx(x1, width), depth, 1, SliceId(row), static_cast<uint32_t>(k)});
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
                    static_cast<uint32_t>(k - first), SliceId(rows[first]), static_cast<uint32_t>(first)});
  }
}

void BuildSliceDrawList(const Trace& trace, const TrackDepthIndex& index, TrackId track, const Viewport& viewport,
                        std::vector<SliceDrawItem>* out, const DrawListOptions& options) {
  for (size_t d = 0; d < index.depth_count(track); ++d) {
    BuildRowDrawList(trace, index.Rows(track, d), index.StartSamples(track, d), static_cast<uint16_t>(d), viewport, out,
                     options);
  }
}

void BuildCounterColumns(const Trace& trace, TrackId track, const RangeArgMax<double>& value_max,
                         const Viewport& viewport, int width, std::vector<float>* columns) {
  columns->assign(static_cast<size_t>(std::max(width, 0)), std::numeric_limits<float>::quiet_NaN());
  const auto& r = trace.tracks().ranges(track);
  const auto ts = trace.counters().ts_ns();
  const auto values = trace.counters().value();
  if (width <= 0 || r.counter_end == r.counter_begin) return;
  // From the value in force at the left edge (the last sample at or before
  // it) to the last sample starting before the right edge.
  size_t k = static_cast<size_t>(
      std::upper_bound(ts.begin() + r.counter_begin, ts.begin() + r.counter_end, viewport.visible.start_ns) -
      ts.begin());
  if (k > r.counter_begin) --k;
  const size_t end = static_cast<size_t>(
      std::lower_bound(ts.begin() + k, ts.begin() + r.counter_end, viewport.visible.end_ns) - ts.begin());
  auto column_of = [&](size_t i) { return static_cast<int>(std::max(0.0, viewport.TimeToX(ts[i]))); };
  std::vector<float>& out = *columns;
  size_t run = 0;  // samples in the last column that had any: the guess for the next one
  while (k < end) {
    const int c = column_of(k);
    if (c >= width) break;
    const size_t j = GallopPartitionNear(k, end, std::min(end, k + run), [&](size_t i) { return column_of(i) <= c; });
    run = j - k;
    const float top = static_cast<float>(values[value_max.Query(values, k, j)]);
    out[c] = std::isnan(out[c]) ? top : std::max(out[c], top);
    // The run's last sample holds until the column where the next one starts
    // (exclusive), or to the right edge after the track's last sample.
    const double x_end = j < r.counter_end ? std::min<double>(width, viewport.TimeToX(ts[j])) : width;
    const float held = static_cast<float>(values[j - 1]);
    for (int h = c + 1; h < std::min(width, static_cast<int>(x_end)); ++h) {
      out[h] = std::isnan(out[h]) ? held : std::max(out[h], held);
    }
    k = j;
  }
}

}  // namespace stepline::ui
