// LaunchLinks: launch <-> activity pairing by correlation id, with both
// indexes (dense ids, sparse ids) checked against a plain std::map.
#include "loaders/launch_links.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

namespace stepline::loaders {
namespace {

using Link = LaunchLinks::Link;

std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> AsTuples(const std::vector<Link>& links) {
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> out;
  for (const Link& l : links) out.emplace_back(l.from.value, l.to.value, l.flow_id);
  return out;
}

// The reference: a map (last launch per id wins), one link per matched
// activity, sorted by (launch, activity).
struct Reference {
  std::map<uint64_t, uint32_t> launch_of;
  std::vector<std::pair<uint64_t, uint32_t>> activities;
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> Links() const {
    std::vector<std::tuple<uint32_t, uint32_t, uint64_t>> out;
    for (const auto& [corr, activity] : activities) {
      auto it = launch_of.find(corr);
      if (it != launch_of.end()) out.emplace_back(it->second, activity, corr);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST(LaunchLinksTest, DenseIdsLinkEveryActivityInLaunchOrder) {
  LaunchLinks links;
  // Launch slices 0..3 with ids 1..4; activities noted in another order.
  for (uint32_t i = 0; i < 4; ++i) links.NoteLaunch(i + 1, SliceId(i));
  links.NoteActivity(3, SliceId(12));
  links.NoteActivity(1, SliceId(10));
  links.NoteActivity(3, SliceId(11));  // a second activity of launch 2 (graph launch)
  links.NoteActivity(9, SliceId(13));  // no launch with this id
  links.Index();
  EXPECT_TRUE(links.dense());
  EXPECT_EQ(links.LaunchOf(3), SliceId(2));
  EXPECT_TRUE(links.LaunchOf(9).is_none());
  EXPECT_TRUE(links.LaunchOf(0).is_none());
  using T = std::tuple<uint32_t, uint32_t, uint64_t>;
  EXPECT_EQ(AsTuples(links.Links()), (std::vector<T>{{0, 10, 1}, {2, 11, 3}, {2, 12, 3}}));
}

TEST(LaunchLinksTest, SparseIdsUseTheSortedIndex) {
  LaunchLinks links;
  links.NoteLaunch(1'000'000'000'000ull, SliceId(5));
  links.NoteLaunch(7, SliceId(6));
  links.NoteLaunch(UINT64_MAX, SliceId(7));
  links.NoteActivity(UINT64_MAX, SliceId(20));
  links.NoteActivity(7, SliceId(21));
  links.NoteActivity(8, SliceId(22));
  links.Index();
  EXPECT_FALSE(links.dense());
  EXPECT_EQ(links.LaunchOf(1'000'000'000'000ull), SliceId(5));
  EXPECT_TRUE(links.LaunchOf(8).is_none());
  using T = std::tuple<uint32_t, uint32_t, uint64_t>;
  EXPECT_EQ(AsTuples(links.Links()), (std::vector<T>{{6, 21, 7}, {7, 20, UINT64_MAX}}));
}

TEST(LaunchLinksTest, TheLastLaunchNotedForAnIdWins) {
  for (uint64_t scale : {1ull, 1ull << 40}) {  // dense, then sparse
    LaunchLinks links;
    links.NoteLaunch(1 * scale, SliceId(0));
    links.NoteLaunch(2 * scale, SliceId(1));
    links.NoteLaunch(1 * scale, SliceId(2));  // id 1 again: this one wins, as a map assignment would
    links.NoteActivity(1 * scale, SliceId(9));
    links.Index();
    EXPECT_EQ(links.dense(), scale == 1);
    EXPECT_EQ(links.LaunchOf(1 * scale), SliceId(2));
    using T = std::tuple<uint32_t, uint32_t, uint64_t>;
    EXPECT_EQ(AsTuples(links.Links()), (std::vector<T>{{2, 9, 1 * scale}}));
  }
}

TEST(LaunchLinksTest, NothingNotedGivesNothing) {
  LaunchLinks links;
  links.NoteActivity(1, SliceId(0));
  links.Index();
  EXPECT_TRUE(links.LaunchOf(1).is_none());
  EXPECT_TRUE(links.Links().empty());
}

// Random traces, launches noted in and out of slice order, ids dense and
// sparse, duplicates: always the reference's links in the reference's order.
TEST(LaunchLinksTest, MatchesAMapOnRandomInput) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 200; ++round) {
    const bool sparse = round % 2 == 1;
    const bool shuffled = round % 4 >= 2;
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 300);
    LaunchLinks links;
    Reference ref;
    std::vector<uint32_t> slices(n);
    for (uint32_t i = 0; i < n; ++i) slices[i] = i * 3;
    if (shuffled) std::shuffle(slices.begin(), slices.end(), rng);
    auto id_of = [&](uint64_t k) { return sparse ? k * 0x10000000001ull + 17 : k + 100; };
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t corr = id_of(rng() % (n + n / 4 + 1));  // some ids twice, some never
      links.NoteLaunch(corr, SliceId(slices[i]));
      ref.launch_of[corr] = slices[i];
    }
    const uint32_t m = static_cast<uint32_t>(rng() % (2 * n + 1));
    for (uint32_t i = 0; i < m; ++i) {
      const uint64_t corr = id_of(rng() % (n + n / 2 + 1));
      const uint32_t activity = 100000 + static_cast<uint32_t>(rng() % 5000);
      links.NoteActivity(corr, SliceId(activity));
      ref.activities.emplace_back(corr, activity);
    }
    links.Index();
    EXPECT_EQ(links.dense(), !sparse) << "round " << round;
    for (const auto& [corr, slice] : ref.launch_of) EXPECT_EQ(links.LaunchOf(corr), SliceId(slice));
    // Activity order among equal (launch, activity) pairs is not observable.
    EXPECT_EQ(AsTuples(links.Links()), ref.Links()) << "round " << round;
  }
}

}  // namespace
}  // namespace stepline::loaders
