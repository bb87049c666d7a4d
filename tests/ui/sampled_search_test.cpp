// SampledPartition against std::partition_point: every split of short runs
// from every start, runs that sit inside a longer array whose keys outside
// them are not sorted (a device's gaps among other devices', a depth's rows
// among other depths'), duplicate keys, and empty samples.
#include "ui/timeline/sampled_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace stepline::ui {
namespace {

TEST(SampledSearchTest, SamplesEveryStrideKey) {
  const std::vector<TimeNs> keys = [] {
    std::vector<TimeNs> k(70);
    for (size_t i = 0; i < k.size(); ++i) k[i] = static_cast<TimeNs>(i) * 10;
    return k;
  }();
  const std::vector<TimeNs> samples = SampleKeys(keys.size(), [&](size_t i) { return keys[i]; });
  ASSERT_EQ(samples.size(), 3u);  // positions 0, 32, 64
  EXPECT_EQ(samples[0], 0);
  EXPECT_EQ(samples[1], 320);
  EXPECT_EQ(samples[2], 640);
  EXPECT_TRUE(SampleKeys(0, [&](size_t i) { return keys[i]; }).empty());
}

TEST(SampledSearchTest, MatchesPartitionPointForEverySplitAndStart) {
  // Keys 0 before the split, 1 after; the search is for the first 1.
  for (size_t n = 1; n <= 3 * kSampleStride + 5; ++n) {
    for (size_t split = 0; split <= n; ++split) {
      std::vector<TimeNs> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = i < split ? 0 : 1;
      const std::vector<TimeNs> samples = SampleKeys(n, [&](size_t i) { return keys[i]; });
      auto key = [&](size_t i) { return keys[i]; };
      auto pred = [](TimeNs k) { return k < 1; };
      for (size_t from = 0; from <= n; ++from) {
        const size_t want = std::max(from, split);
        ASSERT_EQ(SampledPartition(samples, from, n, key, pred), want) << n << " " << split << " " << from;
        ASSERT_EQ(SampledPartition({}, from, n, key, pred), want) << "unsampled " << n << " " << split << " " << from;
      }
    }
  }
}

TEST(SampledSearchTest, RandomRunsInsideUnsortedArrays) {
  std::mt19937_64 rng(23);
  for (int round = 0; round < 400; ++round) {
    const size_t n = 1 + rng() % 5000;
    std::vector<TimeNs> keys(n);
    for (TimeNs& k : keys) k = static_cast<TimeNs>(rng() % 1'000'000);  // unsorted noise
    // One sorted run [begin, end) with duplicates, as a device's gaps are
    // sorted among the whole index's.
    const size_t begin = rng() % n, end = begin + 1 + rng() % (n - begin);
    std::vector<TimeNs> run(keys.begin() + static_cast<ptrdiff_t>(begin), keys.begin() + static_cast<ptrdiff_t>(end));
    for (TimeNs& k : run) k /= 1 + static_cast<TimeNs>(rng() % 1000);  // many equal keys
    std::sort(run.begin(), run.end());
    std::copy(run.begin(), run.end(), keys.begin() + static_cast<ptrdiff_t>(begin));
    const std::vector<TimeNs> samples = SampleKeys(n, [&](size_t i) { return keys[i]; });
    auto key = [&](size_t i) { return keys[i]; };
    for (int q = 0; q < 20; ++q) {
      const size_t from = begin + rng() % (end - begin + 1);
      const TimeNs t = run.empty() ? 0 : run[rng() % run.size()] + static_cast<TimeNs>(rng() % 3) - 1;
      auto pred = [&](TimeNs k) { return k < t; };
      const size_t want = static_cast<size_t>(
          std::partition_point(keys.begin() + static_cast<ptrdiff_t>(from), keys.begin() + static_cast<ptrdiff_t>(end),
                               pred) -
          keys.begin());
      ASSERT_EQ(SampledPartition(samples, from, end, key, pred), want)
          << "round " << round << " n " << n << " run [" << begin << ", " << end << ") from " << from << " t " << t;
    }
  }
}

}  // namespace
}  // namespace stepline::ui
