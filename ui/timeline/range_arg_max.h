// RangeArgMax: the index of the largest key in any [begin, end) of a fixed
// array in O(1) plus two short scans, so per-pixel "longest gap" and "highest
// counter sample" questions cost the same however many events a pixel holds.
// Built once per trace; the keys stay with their owner and are passed to Query.
//
// Layout: keys are cut into blocks of kBlock. Level 0 keeps each block's
// arg-max; level j keeps the arg-max of 2^j blocks starting at each block (a
// sparse table over blocks). A query covers its whole blocks with two
// overlapping level entries and scans the at most two partial blocks at its
// ends. Memory: 4 bytes x (n / kBlock) x log2(n / kBlock), about 11 MB for 10M
// keys, instead of 4 bytes x n x log2(n) for a plain sparse table.
// Ties go to the earliest index, matching a left-to-right scan with `>`.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "model/sl_assert.h"

namespace stepline::ui {

template <typename T>
class RangeArgMax {
 public:
  static constexpr size_t kBlock = 64;

  RangeArgMax() = default;
  explicit RangeArgMax(std::span<const T> keys) : size_(keys.size()) {
    const size_t blocks = (keys.size() + kBlock - 1) / kBlock;
    if (blocks == 0) return;
    levels_.emplace_back(blocks);
    for (size_t b = 0; b < blocks; ++b) {
      levels_[0][b] = Scan(keys, b * kBlock, std::min(keys.size(), (b + 1) * kBlock));
    }
    for (size_t span = 2; span <= blocks; span *= 2) {
      const std::vector<uint32_t>& prev = levels_.back();
      std::vector<uint32_t> next(blocks - span + 1);
      for (size_t b = 0; b < next.size(); ++b) next[b] = Better(keys, prev[b], prev[b + span / 2]);
      levels_.push_back(std::move(next));
    }
  }

  size_t size() const { return size_; }

  // The index of the largest key in [begin, end) (earliest on ties); requires
  // begin < end <= size() and `keys` to be the array the index was built on.
  uint32_t Query(std::span<const T> keys, size_t begin, size_t end) const {
    SL_ASSERT(begin < end && end <= size_ && keys.size() == size_ && "RangeArgMax: bad range or keys");
    const size_t first_block = (begin + kBlock - 1) / kBlock;  // first block wholly inside
    const size_t end_block = end / kBlock;                     // one past the last block wholly inside
    if (first_block >= end_block) return Scan(keys, begin, end);
    uint32_t best = static_cast<uint32_t>(begin);
    bool has = false;
    if (begin < first_block * kBlock) {
      best = Scan(keys, begin, first_block * kBlock);
      has = true;
    }
    const size_t count = end_block - first_block;
    const size_t level = static_cast<size_t>(std::bit_width(count)) - 1;
    const std::vector<uint32_t>& table = levels_[level];
    const uint32_t mid = Better(keys, table[first_block], table[end_block - (size_t{1} << level)]);
    best = has ? Better(keys, best, mid) : mid;
    if (end_block * kBlock < end) best = Better(keys, best, Scan(keys, end_block * kBlock, end));
    return best;
  }

  size_t MemoryBytes() const {
    size_t bytes = 0;
    for (const auto& l : levels_) bytes += l.capacity() * sizeof(uint32_t);
    return bytes;
  }

 private:
  // a < b as indices: a wins ties.
  static uint32_t Better(std::span<const T> keys, uint32_t a, uint32_t b) { return keys[b] > keys[a] ? b : a; }
  static uint32_t Scan(std::span<const T> keys, size_t begin, size_t end) {
    size_t best = begin;
    for (size_t i = begin + 1; i < end; ++i) {
      if (keys[i] > keys[best]) best = i;
    }
    return static_cast<uint32_t>(best);
  }

  size_t size_ = 0;
  std::vector<std::vector<uint32_t>> levels_;  // levels_[j][b]: arg-max of blocks [b, b + 2^j)
};

}  // namespace stepline::ui
