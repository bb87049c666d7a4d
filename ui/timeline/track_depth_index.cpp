// TrackDepthIndex construction: a counting sort by depth within each track,
// the tracks shared between two threads on big traces.
#include "ui/timeline/track_depth_index.h"

#include <algorithm>
#include <numeric>
#include <thread>

#include "ui/timeline/sampled_search.h"
#include "model/worker_thread.h"

namespace stepline::ui {
namespace {

// Below this many slices one thread is quicker than starting a second.
constexpr size_t kParallelSlices = size_t{1} << 20;

}  // namespace

TrackDepthIndex::TrackDepthIndex(const Trace& trace) {
  const SliceTable& slices = trace.slices();
  const TrackTable& tracks = trace.tracks();
  row_count_ = slices.size();
  rows_.reset(new uint32_t[row_count_]);
  depth_begin_.resize(tracks.size());
  samples_.resize(tracks.size());
  sample_begin_.resize(tracks.size());
  // Tracks hold consecutive slice ranges: split where half the slices are behind.
  size_t split = tracks.size();
  if (slices.size() >= kParallelSlices && tracks.size() > 1) {
    size_t behind = 0;
    for (split = 0; split < tracks.size() && behind < slices.size() / 2; ++split) {
      const auto& r = tracks.ranges(TrackId::FromIndex(split));
      behind += r.slice_end - r.slice_begin;
    }
  }
  if (split == 0 || split >= tracks.size()) {
    BuildTracks(trace, 0, tracks.size());
    return;
  }
  WorkerThread second([&] { BuildTracks(trace, split, tracks.size()); });
  BuildTracks(trace, 0, split);
  second.join();
}

void TrackDepthIndex::BuildTracks(const Trace& trace, size_t first_track, size_t end_track) {
  const auto depth = trace.slices().depth();
  for (size_t t = first_track; t < end_track; ++t) {
    const auto& r = trace.tracks().ranges(TrackId::FromIndex(t));
    const size_t levels = r.max_depth;
    std::vector<uint32_t>& begin = depth_begin_[t];
    begin.assign(levels + 1, 0);
    begin[0] = r.slice_begin;
    if (levels <= 1) {
      // One level (every GPU stream): the rows in table order, no counting.
      if (levels == 1) begin[1] = r.slice_end;
      std::iota(rows_.get() + r.slice_begin, rows_.get() + r.slice_end, r.slice_begin);
      SampleStarts(trace, t);
      continue;
    }
    // Slices past the depth limit share the last level.
    auto level_of = [&](uint32_t row) { return std::min<size_t>(depth[row], levels - 1); };
    std::vector<uint32_t> count(levels, 0);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) ++count[level_of(i)];
    for (size_t d = 0; d < levels; ++d) begin[d + 1] = begin[d] + count[d];
    std::vector<uint32_t> cursor(begin.begin(), begin.end() - 1);
    // Walking rows in table order keeps each depth's rows in start order.
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) rows_[cursor[level_of(i)]++] = i;
    SampleStarts(trace, t);
  }
}

void TrackDepthIndex::SampleStarts(const Trace& trace, size_t track) {
  const auto starts = trace.slices().start_ns();
  const std::vector<uint32_t>& begin = depth_begin_[track];
  std::vector<TimeNs>& samples = samples_[track];
  std::vector<uint32_t>& sample_begin = sample_begin_[track];
  sample_begin.assign(1, 0);
  for (size_t d = 0; d + 1 < begin.size(); ++d) {
    for (uint32_t i = begin[d]; i < begin[d + 1]; i += kSampleStride) samples.push_back(starts[rows_[i]]);
    sample_begin.push_back(static_cast<uint32_t>(samples.size()));
  }
}

std::span<const uint32_t> TrackDepthIndex::Rows(TrackId track, size_t depth) const {
  const std::vector<uint32_t>& begin = depth_begin_[track.index()];
  if (depth + 1 >= begin.size()) return {};
  return std::span<const uint32_t>(rows_.get(), row_count_).subspan(begin[depth], begin[depth + 1] - begin[depth]);
}

std::span<const TimeNs> TrackDepthIndex::StartSamples(TrackId track, size_t depth) const {
  const std::vector<uint32_t>& begin = sample_begin_[track.index()];
  if (depth + 1 >= begin.size()) return {};
  return std::span<const TimeNs>(samples_[track.index()]).subspan(begin[depth], begin[depth + 1] - begin[depth]);
}

}  // namespace stepline::ui
