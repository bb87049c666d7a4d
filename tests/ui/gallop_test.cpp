// GallopPartition and GallopPartitionNear against std::partition_point on
// every split of short ranges and with every guess.
#include "ui/timeline/gallop.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace stepline::ui {
namespace {

TEST(GallopTest, MatchesPartitionPointForEveryFromSplitAndGuess) {
  for (size_t n = 0; n <= 70; ++n) {
    for (size_t split = 0; split <= n; ++split) {
      std::vector<int> v(n);
      for (size_t i = 0; i < n; ++i) v[i] = i < split ? 0 : 1;
      for (size_t from = 0; from <= split; ++from) {
        auto pred = [&](size_t i) { return v[i] == 0; };
        ASSERT_EQ(GallopPartition(from, n, pred), split) << n << " " << split << " " << from;
        for (size_t guess = 0; guess <= n + 1; ++guess) {
          ASSERT_EQ(GallopPartitionNear(from, n, guess, pred), split)
              << n << " " << split << " " << from << " guess " << guess;
        }
      }
    }
  }
}

}  // namespace
}  // namespace stepline::ui
