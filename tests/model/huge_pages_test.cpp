// ReserveAdvised / PushBackAdvised (model/huge_pages.h) behave as reserve and
// push_back: the elements survive every growth, small and past the size
// where the huge page advice starts; the advice itself is harmless anywhere.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/column.h"
#include "model/huge_pages.h"

namespace stepline {
namespace {

TEST(HugePagesTest, PushBackAdvisedKeepsEveryElementAcrossGrowths) {
  std::vector<uint64_t> v;
  const size_t n = 3 * kHugePageAdviceMinBytes / sizeof(uint64_t) + 17;  // several growths past the threshold
  for (size_t i = 0; i < n; ++i) PushBackAdvised(v, uint64_t{i} * 2654435761u);
  ASSERT_EQ(v.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], uint64_t{i} * 2654435761u) << i;
}

TEST(HugePagesTest, PushBackAdvisedOfItsOwnElementSurvivesTheGrowth) {
  std::vector<std::vector<int>::size_type> v;
  for (size_t round = 0; round < 17; ++round) {  // to 2 M elements: past the advice threshold
    while (v.size() < v.capacity()) v.push_back(v.size());
    PushBackAdvised(v, v.empty() ? size_t{7} : v.front() + 7);  // grows with x read from v
    PushBackAdvised(v, v[0]);                                     // x an element of v itself
    ASSERT_EQ(v.back(), v[0]);
  }
}

TEST(HugePagesTest, ColumnResizeGrowsGeometrically) {
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

TEST(HugePagesTest, ReserveAdvisedGrowsOnlyAndKeepsContent) {
  std::vector<int32_t> v = {1, 2, 3};
  ReserveAdvised(v, 2);  // smaller than the capacity: nothing happens
  EXPECT_EQ(v, (std::vector<int32_t>{1, 2, 3}));
  ReserveAdvised(v, 100);  // small: a plain reserve
  EXPECT_GE(v.capacity(), 100u);
  const size_t big = kHugePageAdviceMinBytes / sizeof(int32_t) * 2;
  ReserveAdvised(v, big);  // large: a new advised block, elements moved in
  EXPECT_GE(v.capacity(), big);
  EXPECT_EQ(v, (std::vector<int32_t>{1, 2, 3}));
}

TEST(HugePagesTest, AdviceOnAnyRangeIsHarmless) {
  std::vector<char> buffer(kHugePageAdviceMinBytes + 4097, 'x');
  AdviseHugePages(nullptr, 0);
  AdviseHugePages(buffer.data() + 1, 10);  // below the minimum: ignored
  AdviseHugePages(buffer.data() + 3, buffer.size() - 3);  // unaligned ends: whole pages inside only
  EXPECT_EQ(buffer.front(), 'x');
  EXPECT_EQ(buffer.back(), 'x');
}

}  // namespace
}  // namespace stepline
