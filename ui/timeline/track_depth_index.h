// TrackDepthIndex: for every track, the slice rows of each nesting depth in
// start order. The slice table interleaves depths within a track; drawing one
// row of the timeline needs one depth alone, and level-of-detail folding needs
// to binary-search ahead within it. Built once per trace (4 bytes per slice,
// plus 8 per kSampleStride slices of sampled starts).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "model/trace.h"

namespace stepline::ui {

class TrackDepthIndex {
 public:
  // Two threads when the trace is big (tracks split by slice count): this is
  // on the path to the window's first frame.
  explicit TrackDepthIndex(const Trace& trace);

  size_t depth_count(TrackId track) const { return depth_begin_[track.index()].size() - 1; }
  // Slice rows (SliceId values) at `depth` on `track`, sorted by start_ns.
  std::span<const uint32_t> Rows(TrackId track, size_t depth) const;
  // The start of every kSampleStride-th of those rows (sampled_search.h), so
  // the draw list's fold searches stay in cache at fit zoom.
  std::span<const TimeNs> StartSamples(TrackId track, size_t depth) const;

 private:
  void BuildTracks(const Trace& trace, size_t first_track, size_t end_track);
  void SampleStarts(const Trace& trace, size_t track);

  // Grouped by (track, depth), start order inside; every entry is written by
  // BuildTracks (no zero fill first: 40 MB on the 10M-slice demo).
  std::unique_ptr<uint32_t[]> rows_;
  size_t row_count_ = 0;
  std::vector<std::vector<uint32_t>> depth_begin_;  // per track: offset of each depth in rows_, + end
  // Per track, each depth's start samples back to back; sample_begin_[t][d]
  // is where depth d's begin (+ end).
  std::vector<std::vector<TimeNs>> samples_;
  std::vector<std::vector<uint32_t>> sample_begin_;
};

}  // namespace stepline::ui
