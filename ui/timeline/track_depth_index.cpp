// TrackDepthIndex construction: a counting sort by depth within each track.
#include "ui/timeline/track_depth_index.h"

#include <algorithm>

namespace stepline::ui {

TrackDepthIndex::TrackDepthIndex(const Trace& trace) {
  const SliceTable& slices = trace.slices();
  const TrackTable& tracks = trace.tracks();
  const auto depth = slices.depth();
  rows_.resize(slices.size());
  depth_begin_.resize(tracks.size());
  for (size_t t = 0; t < tracks.size(); ++t) {
    const auto& r = tracks.ranges(TrackId::FromIndex(t));
    const size_t levels = r.max_depth;
    // Slices past the depth limit share the last level.
    auto level_of = [&](uint32_t row) { return std::min<size_t>(depth[row], levels - 1); };
    std::vector<uint32_t>& begin = depth_begin_[t];
    begin.assign(levels + 1, 0);
    begin[0] = r.slice_begin;
    std::vector<uint32_t> count(levels, 0);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) ++count[level_of(i)];
    for (size_t d = 0; d < levels; ++d) begin[d + 1] = begin[d] + count[d];
    std::vector<uint32_t> cursor(begin.begin(), begin.end() - 1);
    // Walking rows in table order keeps each depth's rows in start order.
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) rows_[cursor[level_of(i)]++] = i;
  }
}

std::span<const uint32_t> TrackDepthIndex::Rows(TrackId track, size_t depth) const {
  const std::vector<uint32_t>& begin = depth_begin_[track.index()];
  if (depth + 1 >= begin.size()) return {};
  return std::span<const uint32_t>(rows_).subspan(begin[depth], begin[depth + 1] - begin[depth]);
}

}  // namespace stepline::ui
