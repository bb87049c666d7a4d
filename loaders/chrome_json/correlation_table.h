// CorrelationTable: (track, correlation id) -> the first slice of that track
// carrying that correlation; the lookup that binds a launch flow's ends to
// the launch call and the kernel rather than to whatever encloses its time.
// Built once per load from the importer's pending correlations; read-only
// afterwards, so lookups may run on several threads.
#pragma once

#include <bit>
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
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = std::countr_zero(capacity) - 1;
    for (size_t k = 0; k < count; ++k) Insert(source(k));
  }
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
  // inserted and looked up in nearly ascending order. Slots two apart per id
  // (a launch and its kernel: one id on two tracks) keep that order, so the
  // lookups walk the table instead of missing the cache on every one (issue
  // #22: the table was most of the launch-link pass). The bits above the
  // table's size are folded in, so ids a multiple of its size apart (or
  // hashed from strings) still spread. The track is compared, not hashed.
  size_t Home(uint64_t correlation) const {
    const uint64_t folded = correlation ^ (correlation >> shift_) ^ (correlation >> 2 * shift_);
    return static_cast<size_t>(folded << 1) & mask_;
  }
  void Insert(const Entry& e);

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 1;  // log2(capacity) - 1: the id bits a slot pair can tell apart
};

}  // namespace stepline::loaders
