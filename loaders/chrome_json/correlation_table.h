// CorrelationTable: (track, correlation id) -> the first slice of that track
// carrying that correlation; the lookup that binds a launch flow's ends to
// the launch call and the kernel rather than to whatever encloses its time.
// Built once per load from the importer's pending correlations; read-only
// afterwards, so lookups may run on several threads.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/ids.h"

namespace stepline::loaders {

class CorrelationTable {
 public:
  struct Entry {
    uint32_t track;  // TrackId value of the slice's track
    uint64_t correlation;
    SliceId slice;
  };

  CorrelationTable() = default;
  // Entries in input order: for a repeated (track, correlation) the first wins.
  template <typename Source>  // Source(i) -> Entry, for i in [0, count)
  void Build(size_t count, Source&& source) {
    // Ordered slots hold an id's entries in its own pair of slots, so they
    // need two slots per id of the ids' span, not two per entry: up to 8/9
    // full when every id has two entries (a launch and its kernel). Half the
    // memory of hashing's load of 1/2, each page of it zeroed, then written,
    // on the load's serial tail (33.5 -> 16.8 MB on the 413 MB demo).
    uint64_t low = UINT64_MAX, high = 0;
    for (size_t k = 0; k < count; ++k) {
      const uint64_t c = source(k).correlation;
      low = std::min(low, c);
      high = std::max(high, c);
    }
    const uint64_t span = count == 0 ? 0 : high - low;  // + 1, without overflow
    const size_t ordered_slots = span < count ? std::max<size_t>(2 * span + 2, count + count / 8) : 2 * count;
    // Ordered slots first; if the ids crowd together (see Home), hashed ones.
    for (const bool ordered : {true, false}) {
      size_t capacity = 16;
      while (capacity < (ordered ? ordered_slots : 2 * count)) capacity *= 2;
      mask_ = capacity - 1;
      shift_ = std::countr_zero(capacity) - 1;
      ordered_ = ordered;
      longest_probe_ = 0;
      slots_.assign(capacity, Slot{});
      const size_t budget = ordered ? 8 * count + 1024 : SIZE_MAX;
      size_t probes = 0;
      size_t k = 0;
      for (; k < count && probes <= budget; ++k) probes += Insert(source(k));
      if (k == count) return;
    }
  }
  // Whether the slots keep ids in order (else they are hashed); for tests.
  bool ordered() const { return ordered_; }
  size_t slot_count() const { return slots_.size(); }  // for tests
  SliceId Find(uint32_t track, uint64_t correlation) const;

 private:
  // Open addressing, linear probing, load factor <= 0.5 when hashed. Flat: tens of
  // thousands to millions of entries per trace, no node maps.
  struct Slot {
    uint64_t correlation = 0;
    uint32_t track = 0;
    uint32_t slice_plus_one = 0;  // 0 = empty
  };
  // Correlation ids are mostly consecutive integers (a counter per process),
  // inserted and looked up in nearly ascending order. Ordered slots, two
  // apart per id (a launch and its kernel: one id on two tracks), keep that
  // order, so the lookups walk the table instead of missing the cache on
  // every one (issue #22: the table was most of the launch-link pass). The
  // bits above the table's size are folded in, so ids a multiple of its size
  // apart (or hashed from strings) still spread. But the track is not
  // hashed: ids that overlap on more tracks (per-process counters of several
  // processes in one trace) pile into one cluster, and probing would grow
  // quadratic; Build() then falls back to hashing the track and the id, once
  // its probes pass 8 per entry.
  size_t Home(uint32_t track, uint64_t correlation) const {
    if (!ordered_) {
      return static_cast<size_t>((correlation * 0x9E3779B97F4A7C15ull ^ track * 0xC2B2AE3D27D4EB4Full) >> 17) & mask_;
    }
    const uint64_t folded = correlation ^ (correlation >> shift_) ^ (correlation >> std::min(2 * shift_, 63));
    return static_cast<size_t>(folded << 1) & mask_;
  }
  size_t Insert(const Entry& e);  // returns the slots it probed

  std::vector<Slot> slots_;
  // The most slots an insert probed. An entry lies at most this far from its
  // home, so a lookup stops there: consecutive ids sit in one long cluster,
  // which a missing key walked to its end before (a second's worth of
  // probes for 200,000 misses in a table of 100,000 ids).
  size_t longest_probe_ = 0;
  size_t mask_ = 0;
  int shift_ = 1;  // log2(capacity) - 1: the id bits a slot pair can tell apart
  bool ordered_ = true;
};

}  // namespace stepline::loaders
