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
    uint64_t low = UINT64_MAX, high = 0;
    for (size_t k = 0; k < count; ++k) {
      const uint64_t c = source(k).correlation;
      low = std::min(low, c);
      high = std::max(high, c);
    }
    const uint64_t span = count == 0 ? 0 : high - low;  // + 1, without overflow
    dense_.clear();
    if (count > 0 && span < 2 * static_cast<uint64_t>(count) + kDenseSlack) {
      BuildDense(count, low, span, source);
      return;
    }
    BuildSlots(count, span, source);
  }
  // Which layout Build() chose; for tests.
  enum class Layout : uint8_t { kDense, kOrdered, kHashed };
  Layout layout() const { return !dense_.empty() ? Layout::kDense : ordered_ ? Layout::kOrdered : Layout::kHashed; }
  // Bytes the table holds (for tests: the table is written on the load's serial tail).
  size_t MemoryBytes() const { return dense_.size() * sizeof(DenseEntry) + slots_.size() * sizeof(Slot); }
  SliceId Find(uint32_t track, uint64_t correlation) const;

 private:
  // Dense ids (the usual case: a counter per process, a launch and its kernel
  // per id) take two entries per id of their span, at (id - low) * 2, with no
  // key stored and no probing: 16 bytes per id, where ordered slots took 32
  // to 64 (two 16-byte slots per id, rounded up to a power of two), all of it
  // fresh memory zeroed and written on the load's serial tail (measured:
  // 268 MB -> 62 MB on the 4.16 GB demo, whose tail spent 1.45 s of
  // `bench` in its page faults).
  // A third track of one id goes to the slots, hashed.
  static constexpr uint64_t kDenseSlack = 1024;
  struct DenseEntry {
    uint32_t track = 0;
    uint32_t slice_plus_one = 0;  // 0 = empty
  };
  template <typename Source>
  void BuildDense(size_t count, uint64_t low, uint64_t span, Source& source) {
    dense_low_ = low;
    dense_.assign(2 * (span + 1), DenseEntry{});
    std::vector<Entry> overflow;
    for (size_t k = 0; k < count; ++k) {
      const Entry e = source(k);
      DenseEntry* pair = &dense_[2 * (e.correlation - low)];
      if (pair[0].slice_plus_one == 0) {
        pair[0] = DenseEntry{e.track, e.slice.value + 1};
      } else if (pair[0].track == e.track) {
        continue;  // the first wins
      } else if (pair[1].slice_plus_one == 0) {
        pair[1] = DenseEntry{e.track, e.slice.value + 1};
      } else if (pair[1].track != e.track) {
        overflow.push_back(e);
      }
    }
    if (overflow.empty()) {
      slots_.clear();
      slots_.shrink_to_fit();
      return;
    }
    BuildHashed(overflow.size(), [&](size_t i) { return overflow[i]; });
  }
  template <typename Source>
  void BuildSlots(size_t count, uint64_t span, Source& source) {
    // Ordered slots hold an id's entries in its own pair of slots, so they
    // need two slots per id of the ids' span, not two per entry: up to 8/9
    // full when every id has two entries (a launch and its kernel). Half the
    // memory of hashing's load of 1/2 (33.5 -> 16.8 MB on the 413 MB demo,
    // before the dense layout took such ids).
    const size_t ordered_slots = span < count ? std::max<size_t>(2 * span + 2, count + count / 8) : 2 * count;
    ordered_ = true;
    if (FillSlots(count, ordered_slots, 8 * count + 1024, source)) return;
    BuildHashed(count, source);  // the ids crowd together (see Home)
  }
  template <typename Source>
  void BuildHashed(size_t count, Source&& source) {
    ordered_ = false;
    FillSlots(count, 2 * count, SIZE_MAX, source);
  }
  // Sizes the slots for `wanted` and inserts every entry; false when the
  // probes passed `budget` first.
  template <typename Source>
  bool FillSlots(size_t count, size_t wanted, size_t budget, Source& source) {
    size_t capacity = 16;
    while (capacity < wanted) capacity *= 2;
    mask_ = capacity - 1;
    shift_ = std::countr_zero(capacity) - 1;
    longest_probe_ = 0;
    slots_.assign(capacity, Slot{});
    size_t probes = 0;
    size_t k = 0;
    for (; k < count && probes <= budget; ++k) probes += Insert(source(k));
    return k == count;
  }
  SliceId FindInSlots(uint32_t track, uint64_t correlation) const;

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
  // every one (the table was most of the launch-link pass). The
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

  std::vector<DenseEntry> dense_;  // with the dense layout; else empty
  uint64_t dense_low_ = 0;         // the id of dense_[0] and dense_[1]
  std::vector<Slot> slots_;        // the other layouts, and a dense table's third tracks
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
