// StableSortRuns gives exactly what std::stable_sort gives (equal keys keep
// their input order) for input in order, in a few runs, in many runs (its
// std::stable_sort fallback), and at the edges (empty, one element, runs of
// one).
#include "loaders/chrome_json/stable_sort_runs.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace stepline::loaders {
namespace {

using Item = std::pair<int, int>;  // (key, input position): only the key is compared

bool KeyLess(const Item& a, const Item& b) { return a.first < b.first; }

// `runs` ascending runs of keys drawn from [0, key_range), laid end to end.
std::vector<Item> Runs(size_t n, size_t runs, int key_range, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> keys(n);
  for (int& k : keys) k = static_cast<int>(rng() % static_cast<uint64_t>(key_range));
  const size_t per_run = (n + runs - 1) / runs;
  for (size_t b = 0; b < n; b += per_run) std::sort(keys.begin() + b, keys.begin() + std::min(n, b + per_run));
  std::vector<Item> items;
  for (size_t i = 0; i < n; ++i) items.emplace_back(keys[i], static_cast<int>(i));
  return items;
}

void ExpectAsStableSort(std::vector<Item> items) {
  std::vector<Item> expected = items;
  std::stable_sort(expected.begin(), expected.end(), KeyLess);
  StableSortRuns(items.begin(), items.end(), KeyLess);
  EXPECT_EQ(items, expected);
}

TEST(StableSortRunsTest, MatchesStableSortForAnyNumberOfRuns) {
  for (size_t runs : {1, 2, 3, 7, 64, 1000, 5000}) {
    for (int key_range : {3, 1000, 1 << 30}) {  // many ties, some, almost none
      SCOPED_TRACE(::testing::Message() << runs << " runs, keys < " << key_range);
      ExpectAsStableSort(Runs(10000, runs, key_range, runs * 31 + static_cast<uint64_t>(key_range)));
    }
  }
}

TEST(StableSortRunsTest, Edges) {
  ExpectAsStableSort({});
  ExpectAsStableSort({{5, 0}});
  ExpectAsStableSort({{5, 0}, {5, 1}});
  ExpectAsStableSort({{6, 0}, {5, 1}});
  std::vector<Item> descending;
  for (int i = 0; i < 100; ++i) descending.emplace_back(100 - i, i);  // a run per element: the fallback
  ExpectAsStableSort(descending);
}

}  // namespace
}  // namespace stepline::loaders
