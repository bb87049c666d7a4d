// BuildSliceDrawList: turns one track's slices in the visible window into a
// short list of rectangles to draw, bounded by pixels, not events. Slices
// narrower than min_slice_px are folded with their neighbours (while the gaps
// between them stay under min_slice_px too) into one item carrying a count,
// as Tracy does. Pure: no ImGui, safe to run for many tracks on worker threads.
// BuildCounterColumns does the same for counter rows: one value per pixel
// column, found by search and a range max, never by visiting every sample.
#pragma once

#include <cstdint>
#include <vector>

#include "model/trace.h"
#include "ui/timeline/range_arg_max.h"
#include "ui/timeline/track_depth_index.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

struct SliceDrawItem {
  float x0_px = 0, x1_px = 0;  // from the viewport's left edge; clamped to just outside [0, width]
  uint16_t depth = 0;          // row within the track
  uint32_t count = 1;          // 1: one slice; > 1: a folded run of that many slices
  SliceId slice;               // the slice, or the first slice of the run
  uint32_t index = 0;          // position of `slice` in the row list it came from (the run is [index, index + count))
};

struct DrawListOptions {
  double min_slice_px = 3.0;  // narrower slices fold (Tracy's MinVisSize)
};

// Appends the items of `track` to `out`, depth by depth, each depth in time order.
void BuildSliceDrawList(const Trace& trace, const TrackDepthIndex& index, TrackId track, const Viewport& viewport,
                        std::vector<SliceDrawItem>* out, const DrawListOptions& options = {});

// The same for one row of slices given directly: `rows` are slice rows in
// start order that do not overlap each other (a depth of a track, or a lane of
// a device's copy row). Items get `depth` as their row. `start_samples`: the
// start of every kSampleStride-th row (TrackDepthIndex::StartSamples), or
// empty (then the searches gallop over the rows themselves).
void BuildRowDrawList(const Trace& trace, std::span<const uint32_t> rows, std::span<const TimeNs> start_samples,
                      uint16_t depth, const Viewport& viewport, std::vector<SliceDrawItem>* out,
                      const DrawListOptions& options = {});

// A counter track's step chart, one value per pixel column c in [0, width):
// the largest sample starting in the column (x in [c, c + 1)), else the value
// held from the last earlier sample, else NaN (nothing drawn; before the first
// sample). The last sample holds to the right edge. `value_max` is built over
// trace.counters().value(). O(width * log samples) for any number of samples.
void BuildCounterColumns(const Trace& trace, TrackId track, const RangeArgMax<double>& value_max,
                         const Viewport& viewport, int width, std::vector<float>* columns);

}  // namespace stepline::ui
