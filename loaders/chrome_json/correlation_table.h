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
    size_t capacity = 16;
    while (capacity < count * 2) capacity *= 2;
    mask_ = capacity - 1;
    shift_ = std::countr_zero(capacity) - 1;
    // Ordered slots first; if the ids crowd together (see Home), hashed ones.
    for (const bool ordered : {true, false}) {
      ordered_ = ordered;
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
  SliceId Find(uint32_t track, uint64_t correlation) const;

 private:
  // Open addressing, linear probing, load factor <= 0.5. Flat: tens of
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
  size_t mask_ = 0;
  int shift_ = 1;  // log2(capacity) - 1: the id bits a slot pair can tell apart
  bool ordered_ = true;
};

}  // namespace stepline::loaders
