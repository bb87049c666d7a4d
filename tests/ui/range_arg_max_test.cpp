// RangeArgMax against a linear scan: every range of small arrays around the
// block size, random ranges of a large one, many ties (earliest index wins).
#include "ui/timeline/range_arg_max.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace stepline::ui {
namespace {

template <typename T>
uint32_t ScanArgMax(const std::vector<T>& keys, size_t begin, size_t end) {
  size_t best = begin;
  for (size_t i = begin + 1; i < end; ++i) {
    if (keys[i] > keys[best]) best = i;
  }
  return static_cast<uint32_t>(best);
}

TEST(RangeArgMaxTest, EveryRangeOfSmallArraysMatchesAScan) {
  constexpr size_t kB = RangeArgMax<int64_t>::kBlock;
  std::mt19937_64 rng(7);
  for (size_t n : {size_t{1}, size_t{2}, kB - 1, kB, kB + 1, 2 * kB, 3 * kB + 5, 5 * kB - 1}) {
    std::vector<int64_t> keys(n);
    for (auto& k : keys) k = static_cast<int64_t>(rng() % 8);  // few values: ties everywhere
    const RangeArgMax<int64_t> index(keys);
    for (size_t b = 0; b < n; ++b) {
      for (size_t e = b + 1; e <= n; ++e)
        ASSERT_EQ(index.Query(keys, b, e), ScanArgMax(keys, b, e)) << n << " " << b << " " << e;
    }
  }
}

TEST(RangeArgMaxTest, RandomRangesOfALargeArrayMatchAScan) {
  std::mt19937_64 rng(11);
  std::vector<double> keys(300'000);
  for (auto& k : keys) k = static_cast<double>(rng() % 1000) - 500.0;
  keys[123'456] = 1e9;  // one spike
  const RangeArgMax<double> index(keys);
  for (int q = 0; q < 3000; ++q) {
    size_t b = rng() % keys.size(), e = rng() % keys.size();
    if (b > e) std::swap(b, e);
    ++e;
    if (q % 3 == 0) e = std::min(keys.size(), b + 1 + rng() % 300);  // short ranges too
    ASSERT_EQ(index.Query(keys, b, e), ScanArgMax(keys, b, e)) << b << " " << e;
  }
  EXPECT_EQ(index.Query(keys, 0, keys.size()), 123'456u);
}

TEST(RangeArgMaxTest, EmptyIndexHasNoBlocks) {
  const RangeArgMax<double> index(std::vector<double>{});
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.MemoryBytes(), 0u);
}

}  // namespace
}  // namespace stepline::ui
