// Trace::Finalize() and the invariant check.
//
// [SECTION] Building-phase accessors
// [SECTION] Grouping rows by track (counting sort + per-track sort)
// [SECTION] Finalize: slices, depth/parents, instants/counters, span (flows:
//           trace_flow_binding.cpp)
// [SECTION] Readers
// [SECTION] Invariants
#include "model/trace.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <thread>

#include "model/sl_assert.h"
#include "model/worker_thread.h"

namespace stepline {

//-----------------------------------------------------------------------------
// [SECTION] Building-phase accessors
//-----------------------------------------------------------------------------

StringPool& Trace::mutable_strings() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return strings_;
}
ProcessTable& Trace::mutable_processes() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return processes_;
}
TrackTable& Trace::mutable_tracks() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return tracks_;
}
SliceTable& Trace::mutable_slices() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return slices_;
}
InstantTable& Trace::mutable_instants() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return instants_;
}
CounterTable& Trace::mutable_counters() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return counters_;
}
FlowTable& Trace::mutable_flows() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return flows_;
}
ArgTable& Trace::mutable_args() {
  SL_ASSERT(!finalized_ && "trace is immutable after Finalize()");
  return args_;
}

//-----------------------------------------------------------------------------
// [SECTION] Grouping rows by track
//-----------------------------------------------------------------------------
namespace {

// Fills `track_begin` (size tracks + 1): where each track's rows start once
// the rows are grouped by track in track-id order.
void CountTrackBegins(std::span<const TrackId> track, size_t track_count, std::vector<uint32_t>* track_begin) {
  track_begin->assign(track_count + 1, 0);
  for (TrackId t : track) ++(*track_begin)[t.index() + 1];
  std::partial_sum(track_begin->begin(), track_begin->end(), track_begin->begin());
}

// Returns `order` (new row -> old row) with rows grouped by track in track-id
// order, stable within a track, and fills `track_begin` (CountTrackBegins).
std::vector<uint32_t> GroupByTrack(std::span<const TrackId> track, size_t track_count,
                                   std::vector<uint32_t>* track_begin) {
  CountTrackBegins(track, track_count, track_begin);
  std::vector<uint32_t> cursor(track_begin->begin(), track_begin->end() - 1);
  std::vector<uint32_t> order(track.size());
  for (uint32_t i = 0; i < track.size(); ++i) order[cursor[track[i].index()]++] = i;
  return order;
}

// Sorts each track's run of `order` with `less` unless it is already sorted
// (the common case: profilers mostly write a thread's events in time order).
// Tracks are split between two threads when the trace is large.
template <typename Less>
void SortWithinTracks(std::vector<uint32_t>* order, const std::vector<uint32_t>& track_begin, Less less) {
  auto sort_tracks = [&](size_t first_track, size_t end_track) {
    for (size_t t = first_track; t < end_track; ++t) {
      auto b = order->begin() + track_begin[t], e = order->begin() + track_begin[t + 1];
      if (!std::is_sorted(b, e, less)) std::sort(b, e, less);
    }
  };
  const size_t tracks = track_begin.size() - 1;
  const size_t rows = order->size();
  if (rows < (1u << 20) || tracks < 2 || std::thread::hardware_concurrency() < 2) {
    sort_tracks(0, tracks);
    return;
  }
  // Split at the track where half the rows are behind us.
  size_t split = static_cast<size_t>(
      std::upper_bound(track_begin.begin(), track_begin.end(), static_cast<uint32_t>(rows / 2)) -
      track_begin.begin());
  split = std::clamp<size_t>(split, 1, tracks);
  WorkerThread worker([&] { sort_tracks(0, split); });
  sort_tracks(split, tracks);
  worker.join();
}

// True when `order` keeps every row where it is (instants and counters, which
// have no InFinalOrder shortcut: they are a small part of any trace).
bool IsIdentity(const std::vector<uint32_t>& order) {
  for (uint32_t i = 0; i < order.size(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

// True when the rows are already grouped by track in track-id order and each
// track's rows are in (start asc, dur desc) order: what SortSlices would make
// of them. Loaders that write each track's rows together and in time order
// (XSpace lines) need no permutation, and skipping it saves a copy of every
// column (measured: ~15% of an XSpace load, most of it first-touching the
// permuted copies). One pass, no allocation.
bool InFinalOrder(std::span<const TrackId> track, std::span<const TimeNs> start, std::span<const DurNs> dur) {
  for (size_t i = 1; i < track.size(); ++i) {
    if (track[i] != track[i - 1]) {
      if (track[i] < track[i - 1]) return false;
      continue;
    }
    if (start[i] < start[i - 1] || (start[i] == start[i - 1] && dur[i] > dur[i - 1])) return false;
  }
  return true;
}

template <typename T>
void Permute(Column<T>* column, const std::vector<uint32_t>& order) {
  if (column->empty()) return;
  GrowArray<T> out;
  out.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) out[i] = (*column)[order[i]];
  column->swap(out);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Finalize
//-----------------------------------------------------------------------------

void Trace::Finalize() {
  SL_ASSERT(!finalized_ && "Finalize() called twice");
  std::vector<uint32_t> new_index_of_old;
  SortSlices(&new_index_of_old);
  ComputeDepthAndParents();
  SortInstantsAndCounters();
  BindFlows(new_index_of_old);
  ComputeSpan();
  finalized_ = true;
}

void Trace::SortSlices(std::vector<uint32_t>* new_index_of_old) {
  SliceTable& s = slices_;
  SL_ASSERT(s.size() < UINT32_MAX && "more slices than SliceId can address");
  std::vector<uint32_t> track_begin;
  new_index_of_old->clear();
  if (InFinalOrder(s.track_, s.start_ns_, s.dur_ns_)) {
    // Nothing moves: no permutation arrays (two uint32 per slice, ~140 MB
    // for a 1 GB XSpace file), and new_index_of_old stays empty = identity.
    CountTrackBegins(s.track_, tracks_.size(), &track_begin);
    SetSliceRanges(track_begin);
    ReportCategoryOverflow();
    return;
  }
  std::vector<uint32_t> order = GroupByTrack(s.track_, tracks_.size(), &track_begin);
  const auto& start = s.start_ns_;
  const auto& dur = s.dur_ns_;
  // (start asc, dur desc, input order): a parent sorts before its children,
  // also when they start together.
  SortWithinTracks(&order, track_begin, [&](uint32_t a, uint32_t b) {
    if (start[a] != start[b]) return start[a] < start[b];
    if (dur[a] != dur[b]) return dur[a] > dur[b];
    return a < b;
  });
  Permute(&s.track_, order);
  Permute(&s.start_ns_, order);
  Permute(&s.dur_ns_, order);
  Permute(&s.name_, order);
  Permute(&s.category_index_, order);
  Permute(&s.arg_set_, order);  // empty when no slice has args
  Permute(&s.gpu_kind_, order);
  ReportCategoryOverflow();
  new_index_of_old->assign(order.size(), 0);
  for (uint32_t i = 0; i < order.size(); ++i) (*new_index_of_old)[order[i]] = i;
  SetSliceRanges(track_begin);
}

void Trace::SetSliceRanges(const std::vector<uint32_t>& track_begin) {
  for (size_t t = 0; t < tracks_.size(); ++t) {
    TrackTable::Ranges& r = tracks_.mutable_ranges(TrackId::FromIndex(t));
    r.slice_begin = track_begin[t];
    r.slice_end = track_begin[t + 1];
  }
}

void Trace::ReportCategoryOverflow() {
  if (slices_.categories_overflowed_ > 0) {
    diagnostics_.Add(DiagCode::kOutOfRange, slices_.categories_overflowed_, Diagnostics::kNoOffset,
                     "more than 65535 distinct slice categories; later ones share one entry");
  }
}

void Trace::ComputeDepthAndParents() {
  SliceTable& s = slices_;
  s.depth_.assign(s.size(), 0);
  s.parent_.assign(s.size(), SliceId::None());
  // Tracks are independent: one pass per track, over a half of them on each
  // of two threads when the trace is large.
  struct Counts {
    uint64_t overlaps = 0, too_deep = 0, device_overlaps = 0;
    uint64_t first_overlap_row = UINT64_MAX, first_device_overlap_row = UINT64_MAX;
  };
  auto nest_tracks = [&](size_t first_track, size_t end_track, Counts* counts) {
    std::vector<uint32_t> stack;
    for (size_t t = first_track; t < end_track; ++t) {
      TrackTable::Ranges& r = tracks_.mutable_ranges(TrackId::FromIndex(t));
      stack.clear();
      uint16_t max_depth = 0;
      const bool device_row = tracks_.kind(TrackId::FromIndex(t)) == TrackKind::kGpuStream;
      for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
        const TimeNs start = s.start_ns_[i];
        const TimeNs end = start + s.dur_ns_[i];
        // A slice ending exactly where the next starts is its sibling, not its parent.
        while (!stack.empty() && s.start_ns_[stack.back()] + s.dur_ns_[stack.back()] <= start) stack.pop_back();
        if (!stack.empty()) {
          const uint32_t p = stack.back();
          const bool partial = end > s.start_ns_[p] + s.dur_ns_[p];
          if (partial && device_row) {
            // Work that overlaps on one stream (programmatic dependent
            // launch: a kernel starts before the previous one ends) is not
            // the earlier one's child: it takes the next lane, with no
            // parent, so neither loses time to the other. Counted as info.
            if (counts->device_overlaps++ == 0) counts->first_device_overlap_row = i;
          } else {
            s.parent_[i] = SliceId(p);
            // Partial overlap: keep the child's true duration (analyses need it)
            // and nest it anyway; count it so the user knows the row lies.
            if (partial && counts->overlaps++ == 0) counts->first_overlap_row = i;
          }
        }
        if (stack.size() >= 0xFFFF) {
          ++counts->too_deep;
          s.depth_[i] = 0xFFFF;
          continue;  // never push: deeper slices share the last level
        }
        s.depth_[i] = static_cast<uint16_t>(stack.size());
        max_depth = std::max<uint16_t>(max_depth, static_cast<uint16_t>(stack.size() + 1));
        stack.push_back(i);
      }
      r.max_depth = max_depth;
    }
  };
  Counts first, second;
  const size_t tracks = tracks_.size();
  size_t split = tracks;
  if (s.size() >= (1u << 18) && tracks >= 2 && std::thread::hardware_concurrency() >= 2) {
    // The track where half the slices are behind us (tracks own consecutive rows).
    split = 1;
    while (split < tracks && tracks_.ranges(TrackId::FromIndex(split)).slice_begin < s.size() / 2) ++split;
  }
  if (split < tracks) {
    WorkerThread worker([&] { nest_tracks(0, split, &first); });
    nest_tracks(split, tracks, &second);
    worker.join();
  } else {
    nest_tracks(0, tracks, &first);
  }
  const uint64_t overlaps = first.overlaps + second.overlaps, too_deep = first.too_deep + second.too_deep;
  // Rows of the first half's tracks come first, so its first overlap is the first.
  const uint64_t first_overlap_row = first.overlaps > 0 ? first.first_overlap_row : second.first_overlap_row;
  if (overlaps > 0) {
    diagnostics_.Add(DiagCode::kOverlappingSlices, overlaps, Diagnostics::kNoOffset,
                     "first: slice \"" + std::string(strings_.Get(s.name_[first_overlap_row])) + "\" at " +
                         std::to_string(s.start_ns_[first_overlap_row]) + " ns");
  }
  const uint64_t device_overlaps = first.device_overlaps + second.device_overlaps;
  if (device_overlaps > 0) {
    const uint64_t row =
        first.device_overlaps > 0 ? first.first_device_overlap_row : second.first_device_overlap_row;
    diagnostics_.Add(DiagCode::kOverlappingDeviceWork, device_overlaps, Diagnostics::kNoOffset,
                     "first: \"" + std::string(strings_.Get(s.name_[row])) + "\" at " +
                         std::to_string(s.start_ns_[row]) + " ns; each kept whole, in its own lane");
  }
  if (too_deep > 0) diagnostics_.Add(DiagCode::kDepthLimit, too_deep, Diagnostics::kNoOffset, "");
}

void Trace::SortInstantsAndCounters() {
  std::vector<uint32_t> track_begin;
  {
    InstantTable& in = instants_;
    std::vector<uint32_t> order = GroupByTrack(in.track_, tracks_.size(), &track_begin);
    const auto& ts = in.ts_ns_;
    SortWithinTracks(&order, track_begin, [&](uint32_t a, uint32_t b) {
      return ts[a] != ts[b] ? ts[a] < ts[b] : a < b;
    });
    if (!IsIdentity(order)) {
      Permute(&in.track_, order);
      Permute(&in.ts_ns_, order);
      Permute(&in.name_, order);
      Permute(&in.category_, order);
      Permute(&in.arg_set_, order);
    }
    for (size_t t = 0; t < tracks_.size(); ++t) {
      TrackTable::Ranges& r = tracks_.mutable_ranges(TrackId::FromIndex(t));
      r.instant_begin = track_begin[t];
      r.instant_end = track_begin[t + 1];
    }
  }
  {
    CounterTable& c = counters_;
    std::vector<uint32_t> order = GroupByTrack(c.track_, tracks_.size(), &track_begin);
    const auto& ts = c.ts_ns_;
    SortWithinTracks(&order, track_begin, [&](uint32_t a, uint32_t b) {
      return ts[a] != ts[b] ? ts[a] < ts[b] : a < b;
    });
    if (!IsIdentity(order)) {
      Permute(&c.track_, order);
      Permute(&c.ts_ns_, order);
      Permute(&c.value_, order);
    }
    for (size_t t = 0; t < tracks_.size(); ++t) {
      TrackTable::Ranges& r = tracks_.mutable_ranges(TrackId::FromIndex(t));
      r.counter_begin = track_begin[t];
      r.counter_end = track_begin[t + 1];
    }
  }
}

void Trace::ComputeSpan() {
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (size_t i = 0; i < slices_.size(); ++i) {
    lo = std::min(lo, slices_.start_ns_[i]);
    hi = std::max(hi, slices_.start_ns_[i] + slices_.dur_ns_[i]);
  }
  for (TimeNs t : instants_.ts_ns_) {
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  for (TimeNs t : counters_.ts_ns_) {
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  span_ = lo <= hi ? TimeRange{lo, hi} : TimeRange{};
}

//-----------------------------------------------------------------------------
// [SECTION] Readers
//-----------------------------------------------------------------------------

std::span<const TimeNs> Trace::TrackSliceStarts(TrackId track) const {
  const auto& r = tracks_.ranges(track);
  return std::span<const TimeNs>(slices_.start_ns_).subspan(r.slice_begin, r.slice_end - r.slice_begin);
}

SliceId Trace::FindEnclosingSlice(TrackId track, TimeNs ts) const {
  if (track.is_none() || track.index() >= tracks_.size()) return SliceId::None();
  const auto& r = tracks_.ranges(track);
  const auto& starts = slices_.start_ns_;
  auto b = starts.begin() + r.slice_begin, e = starts.begin() + r.slice_end;
  auto it = std::upper_bound(b, e, ts);
  if (it == b) return SliceId::None();
  // The last slice starting at or before ts; if it does not contain ts, an
  // ancestor may (every slice starting in [ancestor.start, ts] nests in it).
  SliceId cur = SliceId::FromIndex((it - 1) - starts.begin());
  while (!cur.is_none()) {
    const TimeNs s = starts[cur.index()], en = s + slices_.dur_ns_[cur.index()];
    if (s <= ts && (ts < en || ts == s)) return cur;
    cur = slices_.parent_.empty() ? SliceId::None() : slices_.parent_[cur.index()];
  }
  return SliceId::None();
}

size_t Trace::MemoryBytes() const {
  return strings_.MemoryBytes() + processes_.MemoryBytes() + tracks_.MemoryBytes() + slices_.MemoryBytes() +
         instants_.MemoryBytes() + counters_.MemoryBytes() + flows_.MemoryBytes() + args_.MemoryBytes();
}

size_t Trace::ArgsMemoryBytes() const { return args_.MemoryBytes(); }

//-----------------------------------------------------------------------------
// [SECTION] Invariants
//-----------------------------------------------------------------------------

std::string Trace::CheckInvariants() const {
  const SliceTable& s = slices_;
  const size_t n = s.size();
  if (s.track_.size() != n || s.dur_ns_.size() != n || s.name_.size() != n || s.category_index_.size() != n ||
      (!s.arg_set_.empty() && s.arg_set_.size() != n) || s.gpu_kind_.size() != n || s.depth_.size() != n ||
      s.parent_.size() != n) {
    return "slice columns differ in length";
  }
  uint32_t expected_begin = 0;
  for (size_t t = 0; t < tracks_.size(); ++t) {
    const TrackId id = TrackId::FromIndex(t);
    const auto& r = tracks_.ranges(id);
    if (tracks_.process(id).is_none() || tracks_.process(id).index() >= processes_.size())
      return "track " + std::to_string(t) + " has no valid process";
    if (r.slice_begin != expected_begin || r.slice_end < r.slice_begin) return "track ranges not contiguous";
    expected_begin = r.slice_end;
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (s.track_[i] != id) return "slice " + std::to_string(i) + " outside its track's range";
      if (s.dur_ns_[i] < 0) return "slice " + std::to_string(i) + " has a negative duration";
      if (i > r.slice_begin && s.start_ns_[i] < s.start_ns_[i - 1]) return "slices not sorted by start";
      const SliceId p = s.parent_[i];
      if (p.is_none()) {
        // On a GPU stream, work overlapping earlier work is a root in a later lane.
        if (s.depth_[i] != 0 && tracks_.kind(id) != TrackKind::kGpuStream) return "root slice with non-zero depth";
        continue;
      }
      if (p.index() >= i || p.index() < r.slice_begin) return "parent does not precede child on its track";
      if (s.start_ns_[p.index()] > s.start_ns_[i]) return "child starts before its parent";
      if (s.depth_[i] != 0xFFFF && s.depth_[i] != s.depth_[p.index()] + 1) return "depth != parent depth + 1";
    }
  }
  if (expected_begin != n) return "track ranges do not cover every slice";
  for (size_t i = 0; i < n; ++i) {
    if (s.name_[i].index() >= strings_.size() || s.category()[i].index() >= strings_.size())
      return "slice with an invalid string id";
    if (s.arg_set()[i].index() >= args_.set_count()) return "slice with an invalid arg set";
  }
  for (size_t i = 0; i < flows_.size(); ++i) {
    if (flows_.from_[i].index() >= n || flows_.to_[i].index() >= n) return "flow with an invalid endpoint";
  }
  if (std::string args = args_.CheckInvariants(); !args.empty()) return args;
  for (size_t i = 1; i < instants_.size(); ++i) {
    if (instants_.track_[i] == instants_.track_[i - 1] && instants_.ts_ns_[i] < instants_.ts_ns_[i - 1])
      return "instants not sorted within a track";
  }
  for (size_t i = 1; i < counters_.size(); ++i) {
    if (counters_.track_[i] == counters_.track_[i - 1] && counters_.ts_ns_[i] < counters_.ts_ns_[i - 1])
      return "counters not sorted within a track";
  }
  return {};
}

}  // namespace stepline
