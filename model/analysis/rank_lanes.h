// RankLanes: what the ranks view's timeline keeps of one rank after its
// Trace is freed: a fixed-resolution busy summary of its primary
// device's compute kernels, its collective kernels and its main thread's
// top-level host events, plus its steps for aligning the ranks on one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/analysis/device_activity.h"

namespace stepline::analysis {

struct TraceAnalysis;

// Bins of a rank's summary: more than a wide window has pixels, and small
// enough for thousands of ranks (3 lanes x 4096 bytes each).
inline constexpr size_t kRankLaneBins = 4096;

enum class RankLane : uint8_t { kCompute = 0, kCollective, kHost };
inline constexpr int kRankLaneCount = 3;

// At most this many per-stream compute lanes per rank: the busiest streams,
// the last one merging the rest when there are more.
inline constexpr size_t kRankStreamLanes = 4;

// One compute stream's busy bins (same bins as RankLanes::busy).
struct StreamLane {
  std::string name;  // the stream track's name ("stream 7"); "N other streams" for a merged rest
  std::vector<uint8_t> busy;
};

struct RankLanes {
  TimeRange range;  // the binned range, the rank's own clock (its trace span)
  // Per lane, per bin: the busy share of the bin, 0..255 for 0..1 (rounded),
  // the lane's intervals merged first so overlaps count once. Empty lanes
  // (no summary) have no bins.
  std::array<std::vector<uint8_t>, kRankLaneCount> busy;
  // The compute lane per stream when the device computes on two or more
  // streams (else empty: the compute lane is the one stream): in stream
  // (track) order; more than kRankStreamLanes streams keep the
  // kRankStreamLanes - 1 busiest and merge the rest into a last lane.
  std::vector<StreamLane> compute_streams;
  std::string host_thread;      // the main thread's name ("thread 123" when unnamed); "" when none
  std::vector<Interval> steps;  // the rank's steps, own clock

  size_t bins() const { return busy[0].size(); }
  bool empty() const { return busy[0].empty(); }
  // The time range of bin `b`, own clock.
  TimeRange BinRange(size_t b) const;
  // Busy share 0..1 of `lane` over own-clock [t0, t1): the bins' mean
  // (weighted by their overlap), for drawing one pixel column of any width.
  float BusyIn(RankLane lane, TimeNs t0, TimeNs t1) const;
  // The same over any bins of this range (a StreamLane's).
  float BusyIn(const std::vector<uint8_t>& bins, TimeNs t0, TimeNs t1) const;
};

// The busy share of each of `bins` equal bins of `range` covered by the
// union of `intervals` (unsorted, overlapping allowed), quantized to 0..255.
std::vector<uint8_t> BusyShareBins(std::vector<Interval> intervals, TimeRange range, size_t bins);

// What each lane of a rank is made of, shared by its summary (below) and
// its detail (rank_detail.h) so both draw the same slices in the same lanes.
struct RankLaneSources {
  // Per compute-stream lane (RankLanes::compute_streams order), the stream
  // tracks it holds: one each, the last lane the rest when there are more
  // than kRankStreamLanes. Empty when the device computes on fewer than two
  // streams (one compute lane of every compute kernel).
  std::vector<std::vector<uint32_t>> compute_tracks;
  std::vector<std::string> compute_names;  // the lanes' StreamLane::name
  std::vector<uint32_t> host_slices;       // the main thread's top-level slices, in slice order
  std::string host_thread;                 // RankLanes::host_thread
};
RankLaneSources FindRankLaneSources(const Trace& trace, const TraceAnalysis& analysis);
// A lane's name for a track: its own, else "stream N" (a device track) or
// "thread N" (a host thread), N its tid.
std::string RankTrackName(const Trace& trace, TrackId track);

// The lanes of one rank: the primary device's kernels split into compute
// (also per stream, see compute_streams) and collective, and the main thread, the host thread with the most time in
// top-level slices (a step marker's children count as top-level, the
// marker itself not). `bins` equal bins over the trace span.
RankLanes SummarizeRankLanes(const Trace& trace, const TraceAnalysis& analysis, size_t bins = kRankLaneBins);

}  // namespace stepline::analysis
