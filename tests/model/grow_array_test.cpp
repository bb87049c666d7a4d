// GrowArray (model/grow_array.h): behaves as a vector of trivially copyable
// elements across growths, small (malloc) and large (a mapping grown by
// mremap), and a large block grows without copying its elements into fresh
// pages (no page faults while it grows).
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#endif

#include "model/column.h"
#include "model/grow_array.h"

namespace stepline {
namespace {

constexpr size_t kMappedElements = grow_array_detail::kMappedBlockBytes / sizeof(uint64_t);

uint64_t Value(size_t i) { return uint64_t{i} * 2654435761u + 1; }

TEST(GrowArrayTest, PushBackKeepsEveryElementFromSmallToMapped) {
  GrowArray<uint64_t> a;
  const size_t n = 5 * kMappedElements + 17;  // malloc growths, the move to a mapping, mremap growths
  for (size_t i = 0; i < n; ++i) a.push_back(Value(i));
  ASSERT_EQ(a.size(), n);
  EXPECT_GE(a.capacity(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], Value(i)) << i;
}

TEST(GrowArrayTest, PushBackOfItsOwnElementSurvivesTheGrowth) {
  GrowArray<size_t> a;
  for (int round = 0; round < 24; ++round) {  // to 16 M elements: past the mapping threshold
    while (a.size() < a.capacity()) a.push_back(a.size());
    a.push_back(a.empty() ? size_t{7} : a[0] + 7);  // a growth, x computed from a
    a.push_back(a[0]);                              // x an element of a itself
    ASSERT_EQ(a.back(), a[0]);
  }
}

TEST(GrowArrayTest, AppendFromItselfAcrossAGrowth) {
  GrowArray<uint32_t> a;
  for (uint32_t i = 0; i < 1000; ++i) a.push_back(i);
  while (a.size() < 3 * kMappedElements) a.append(a.data(), a.size());  // each one grows the block
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], i % 1000) << i;
}

TEST(GrowArrayTest, ResizeValueInitializesAndAssignFills) {
  struct Slot {
    uint32_t id = 0xFFFFFFFF;  // value-initialized means this, not zero
    uint32_t hash = 0;
  };
  GrowArray<Slot> a;
  a.resize(kMappedElements * 2);
  EXPECT_EQ(a[0].id, 0xFFFFFFFFu);
  EXPECT_EQ(a[a.size() - 1].id, 0xFFFFFFFFu);
  a[3] = Slot{5, 6};
  a.assign(10, a[3]);  // the value is an element of the array
  ASSERT_EQ(a.size(), 10u);
  EXPECT_EQ(a[9].id, 5u);
  a.resize(4);
  a.resize(6, Slot{1, 2});
  EXPECT_EQ(a[3].id, 5u);
  EXPECT_EQ(a[5].hash, 2u);
}

TEST(GrowArrayTest, CopyMoveSwapAndRelease) {
  GrowArray<uint64_t> a;
  for (size_t i = 0; i < kMappedElements + 3; ++i) a.push_back(Value(i));
  GrowArray<uint64_t> copy = a;
  ASSERT_EQ(copy.size(), a.size());
  EXPECT_NE(copy.data(), a.data());
  EXPECT_EQ(copy[kMappedElements + 2], Value(kMappedElements + 2));
  GrowArray<uint64_t> moved = std::move(a);
  EXPECT_EQ(moved.size(), kMappedElements + 3);
  GrowArray<uint64_t> small;
  small.push_back(42);
  copy = small;  // a mapped array assigned a small one
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_EQ(copy[0], 42u);
  small.swap(moved);
  EXPECT_EQ(small.size(), kMappedElements + 3);
  EXPECT_EQ(moved[0], 42u);
  small.release();
  EXPECT_EQ(small.capacity(), 0u);
  EXPECT_EQ(small.data(), nullptr);
  std::vector<uint64_t> seen(moved.begin(), moved.end());
  EXPECT_EQ(seen, std::vector<uint64_t>{42});
}

#if defined(__linux__)
long MinorFaults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// The point of the class: growing a large block moves no element into fresh
// pages. Copying 64 MB into a new block would fault at least 32 times (2 MB
// huge pages) and 16384 times (4 KB pages) on the way.
TEST(GrowArrayTest, GrowingAMappedBlockTouchesNoNewPages) {
  GrowArray<uint64_t> a;
  const size_t n = size_t{64} << 20 >> 3;  // 64 MB of elements
  a.reserve(n);
  for (size_t i = 0; i < n; ++i) a.push_back(Value(i));
  const long before = MinorFaults();
  a.reserve(4 * n);
  a.reserve(16 * n);
  const long during = MinorFaults() - before;
  EXPECT_LT(during, 16) << "growing faulted " << during << " pages in: the elements were copied";
  EXPECT_EQ(a[n - 1], Value(n - 1));
  EXPECT_EQ(a[n / 2], Value(n / 2));
}
#endif

TEST(GrowArrayTest, ColumnResizeGrowsGeometrically) {
  Column<uint32_t> c;
  size_t allocations = 0;
  const uint32_t* last = nullptr;
  for (uint32_t i = 0; i < 100000; ++i) {
    c.resize(c.size() + 1);
    c[i] = i;
    if (c.data() != last) ++allocations, last = c.data();
  }
  EXPECT_LT(allocations, 40u);  // one per doubling, not one per element
  EXPECT_EQ(c[99999], 99999u);
  c.assign(3, c[5]);  // the value is an element of the column
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c[2], 5u);
}

TEST(GrowArrayTest, ColumnGrowsGeometricallyOverIt) {
  Column<uint32_t> c;
  size_t moves = 0;
  const uint32_t* last = nullptr;
  for (uint32_t i = 0; i < 3000000; ++i) {
    c.push_back(i);
    if (c.data() != last) ++moves, last = c.data();
  }
  EXPECT_LT(moves, 40u);  // one per doubling at most, not one per element
  std::vector<uint32_t> expected(3000000);
  std::iota(expected.begin(), expected.end(), 0u);
  EXPECT_TRUE(std::equal(c.begin(), c.end(), expected.begin(), expected.end()));
}

// resize_for_overwrite: the size a caller then writes in full, from any
// thread; the rows before it stay, across a move to a mapping of its own.
TEST(GrowArrayTest, ResizeForOverwriteKeepsThePrefix) {
  GrowArray<uint64_t> a;
  for (uint64_t i = 0; i < 1000; ++i) a.push_back(i * 3);
  a.resize_for_overwrite(2'000'000);  // 16 MB: past the mapped-block threshold
  ASSERT_EQ(a.size(), 2'000'000u);
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(a[i], i * 3) << i;
  for (uint64_t i = 1000; i < a.size(); ++i) a[i] = i;
  a.resize_for_overwrite(10);
  EXPECT_EQ(a.size(), 10u);
  EXPECT_EQ(a[9], 27u);
  EXPECT_GE(a.capacity(), 2'000'000u);  // shrinking keeps the block
}

}  // namespace
}  // namespace stepline
