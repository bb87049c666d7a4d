// CorrelationTable: (track, correlation id) -> the first slice entered for it,
// whatever the pattern of the ids. Dense ids (the common case) index two
// entries per id; sparse ones take slots that keep ascending ids in order.
// These check that dense ids, an id on more than two tracks, ids which share
// their low bits, ids a multiple of the table's size apart, hashed ids, one
// id on many tracks and ranges of ids repeated on many tracks (which fall
// back to hashed slots) all stay exact, and that the first entry of a
// repeated key wins.
#include "loaders/chrome_json/correlation_table.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

namespace stepline::loaders {
namespace {

using Key = std::pair<uint32_t, uint64_t>;

// Builds a table from `entries` (in order) and checks every entered key and
// some that were not against a map built the same way; returns the layout
// the table chose.
CorrelationTable::Layout ExpectExact(const std::vector<CorrelationTable::Entry>& entries) {
  CorrelationTable table;
  table.Build(entries.size(), [&](size_t i) { return entries[i]; });
  std::map<Key, SliceId> first;
  for (const auto& e : entries) first.try_emplace(Key{e.track, e.correlation}, e.slice);
  for (const auto& [key, slice] : first) {
    EXPECT_EQ(table.Find(key.first, key.second), slice) << "track " << key.first << " id " << key.second;
  }
  for (const auto& e : entries) {
    if (!first.contains(Key{e.track + 1000, e.correlation})) {
      EXPECT_TRUE(table.Find(e.track + 1000, e.correlation).is_none());
    }
    if (!first.contains(Key{e.track, e.correlation + 1})) {
      EXPECT_TRUE(table.Find(e.track, e.correlation + 1).is_none());
    }
    if (e.correlation > 0 && !first.contains(Key{e.track, e.correlation - 1})) {
      EXPECT_TRUE(table.Find(e.track, e.correlation - 1).is_none());
    }
  }
  return table.layout();
}

using Layout = CorrelationTable::Layout;

TEST(CorrelationTableTest, ConsecutiveIdsOnTwoTracks) {
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t i = 0; i < 5000; ++i) entries.push_back({1, 100 + i, SliceId(2 * i)});  // launches
  for (uint32_t i = 0; i < 5000; ++i) entries.push_back({2, 100 + i, SliceId(2 * i + 1)});  // kernels
  EXPECT_EQ(ExpectExact(entries), Layout::kDense);  // the case the dense layout is for
}

// Dense ids take 16 bytes per id of their span (the table is
// zeroed and filled on the load's serial tail); the ordered slots took
// 2^18 16-byte slots here, 4 MB against 1.6 MB.
TEST(CorrelationTableTest, DenseIdsTakeSixteenBytesPerId) {
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t i = 0; i < 100000; ++i) {
    entries.push_back({1, 5000 + i, SliceId(2 * i)});
    entries.push_back({2, 5000 + i, SliceId(2 * i + 1)});
  }
  CorrelationTable table;
  table.Build(entries.size(), [&](size_t i) { return entries[i]; });
  EXPECT_EQ(table.layout(), Layout::kDense);
  EXPECT_EQ(table.MemoryBytes(), size_t{100000} * 16);
  EXPECT_EQ(ExpectExact(entries), Layout::kDense);
}

// An id seen on a third or fourth track (two processes counting from the
// same number, or a kernel's id on a memcpy row too) keeps every entry: the
// first two in the id's own pair, the others in hashed slots. Repeats of a
// key in either place keep the first slice.
TEST(CorrelationTableTest, AnIdOnMoreThanTwoTracksStaysExact) {
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t i = 0; i < 3000; ++i) {
    const auto slice = static_cast<uint32_t>(entries.size());
    entries.push_back({1, 40 + i, SliceId(slice)});
    entries.push_back({2, 40 + i, SliceId(slice + 1)});
    if (i % 3 == 0) entries.push_back({3, 40 + i, SliceId(slice + 2)});
    if (i % 6 == 0) entries.push_back({4, 40 + i, SliceId(slice + 3)});
    if (i % 9 == 0) entries.push_back({1, 40 + i, SliceId(slice + 4)});   // a repeat in the pair
    if (i % 12 == 0) entries.push_back({4, 40 + i, SliceId(slice + 5)});  // a repeat in the slots
  }
  EXPECT_EQ(ExpectExact(entries), Layout::kDense);
  CorrelationTable table;
  table.Build(entries.size(), [&](size_t i) { return entries[i]; });
  EXPECT_TRUE(table.Find(1, 39).is_none());    // below the lowest id
  EXPECT_TRUE(table.Find(1, 3040).is_none());  // past the highest
  EXPECT_TRUE(table.Find(3, 41).is_none());    // a pair with room: nothing beyond it
}

// Kineto's runtime calls all carry an id, but only some launch GPU work: the
// ids' span, not the entry count, sizes the table, so ids do not wrap onto
// each other's entries.
TEST(CorrelationTableTest, SparseKernelIdsKeepTheirOwnEntries) {
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t i = 0; i < 140000; ++i) {
    entries.push_back({1, 7 + i, SliceId(static_cast<uint32_t>(entries.size()))});
    if (i % 8 == 0) entries.push_back({2, 7 + i, SliceId(static_cast<uint32_t>(entries.size()))});
  }
  EXPECT_EQ(ExpectExact(entries), Layout::kDense);
}

// Ids in two far-apart ranges (two processes whose counters start far apart)
// are too sparse for the dense layout, and stay exact in the slots.
TEST(CorrelationTableTest, TwoFarApartRangesStayExact) {
  std::vector<CorrelationTable::Entry> entries;
  for (const uint64_t base : {uint64_t{1}, uint64_t{1} << 40}) {
    for (uint32_t i = 0; i < 5000; ++i) {
      const auto slice = static_cast<uint32_t>(entries.size());
      entries.push_back({1, base + i, SliceId(slice)});
      entries.push_back({2, base + i, SliceId(slice + 1)});
    }
  }
  EXPECT_NE(ExpectExact(entries), Layout::kDense);
}

// Four processes with their own counters, each in two far-apart ranges: the
// same ids on eight tracks, too sparse for the dense layout. In ordered
// slots they pile into one cluster that every insert and lookup walks
// (quadratic: a review finding); the table hashes them instead.
TEST(CorrelationTableTest, OverlappingRangesOnManyTracksFallBackToHashing) {
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t process = 0; process < 4; ++process) {
    for (const uint64_t base : {uint64_t{1}, uint64_t{1} << 40}) {
      for (uint32_t i = 0; i < 10000; ++i) {
        const auto slice = static_cast<uint32_t>(entries.size());
        entries.push_back({10 * process, base + i, SliceId(slice)});          // the launch thread
        entries.push_back({10 * process + 1, base + i, SliceId(slice + 1)});  // the kernel's stream
      }
    }
  }
  EXPECT_EQ(ExpectExact(entries), Layout::kHashed);
}

TEST(CorrelationTableTest, IdsAMultipleOfTheTableSizeApart) {
  std::vector<CorrelationTable::Entry> entries;
  for (int shift : {12, 13, 14, 20, 32, 40, 56}) {
    for (uint32_t i = 1; i < 200; ++i) {
      const auto slice = SliceId(static_cast<uint32_t>(entries.size()));
      entries.push_back({static_cast<uint32_t>(shift), uint64_t{i} << shift, slice});
    }
  }
  EXPECT_NE(ExpectExact(entries), Layout::kDense);
}

TEST(CorrelationTableTest, HashedIdsAndOneIdOnManyTracks) {
  std::mt19937_64 rng(7);
  std::vector<CorrelationTable::Entry> entries;
  for (uint32_t i = 0; i < 20000; ++i) entries.push_back({i % 5, rng(), SliceId(i)});
  for (uint32_t t = 0; t < 300; ++t) entries.push_back({t, 42, SliceId(100000 + t)});
  EXPECT_NE(ExpectExact(entries), Layout::kDense);
}

TEST(CorrelationTableTest, TheFirstEntryOfARepeatedKeyWins) {
  std::vector<CorrelationTable::Entry> entries = {{3, 9, SliceId(5)}, {3, 9, SliceId(1)}, {4, 9, SliceId(2)}};
  CorrelationTable table;
  table.Build(entries.size(), [&](size_t i) { return entries[i]; });
  EXPECT_EQ(table.Find(3, 9), SliceId(5));
  EXPECT_EQ(table.Find(4, 9), SliceId(2));
  EXPECT_TRUE(table.Find(5, 9).is_none());
  EXPECT_TRUE(CorrelationTable().Find(3, 9).is_none());  // never built
}

}  // namespace
}  // namespace stepline::loaders
