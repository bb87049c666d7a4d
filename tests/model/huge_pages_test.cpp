// AdviseHugePages (model/huge_pages.h) is harmless on any range: it only
// ever advises whole pages inside the one it is given.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "model/huge_pages.h"

namespace stepline {
namespace {

TEST(HugePagesTest, AdviceOnAnyRangeIsHarmless) {
  std::vector<char> buffer(kHugePageAdviceMinBytes + 4097, 'x');
  AdviseHugePages(nullptr, 0, /*wanted=*/true);
  AdviseHugePages(buffer.data() + 1, 10, /*wanted=*/true);  // below the minimum: ignored
  AdviseHugePages(buffer.data() + 3, buffer.size() - 3, /*wanted=*/true);  // unaligned ends: whole pages inside only
  EXPECT_EQ(buffer.front(), 'x');
  EXPECT_EQ(buffer.back(), 'x');
}

}  // namespace
}  // namespace stepline
