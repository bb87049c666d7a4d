// PagePrefaulter: reserved, untouched memory is resident after it ran, and
// what was already written there is unchanged.
#include "model/page_prefault.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <vector>

namespace stepline {
namespace {

// Resident pages among the whole pages of [data, data + bytes).
size_t ResidentPages(const void* data, size_t bytes) {
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(page - 1);
  std::vector<unsigned char> vec((end - begin) / page);
  if (::mincore(reinterpret_cast<void*>(begin), end - begin, vec.data()) != 0) return SIZE_MAX;
  size_t n = 0;
  for (unsigned char v : vec) n += v & 1;
  return n;
}

TEST(PagePrefaulterTest, MakesReservedPagesResidentAndKeepsContents) {
  std::vector<uint64_t> column;
  column.reserve(8u << 20);  // 64 MB: its own mapping, untouched beyond what we write
  for (uint64_t i = 0; i < 1000; ++i) column.push_back(i * 3);
  const size_t bytes = column.capacity() * sizeof(uint64_t);
  const size_t pages = bytes / static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t before = ResidentPages(column.data(), bytes);
  ASSERT_NE(before, SIZE_MAX) << "mincore unsupported here";
  ASSERT_LT(before, pages / 2) << "the allocator touched the reservation; the test proves nothing";
  { PagePrefaulter prefault({{column.data(), bytes}}); }
#ifdef MADV_POPULATE_WRITE
  EXPECT_GE(ResidentPages(column.data(), bytes), pages - 2);
#endif
  for (uint64_t i = 0; i < 1000; ++i) ASSERT_EQ(column[i], i * 3);
}

TEST(PagePrefaulterTest, EmptyAndUnalignedBlocksAreHarmless) {
  std::vector<char> small(100, 'x');
  { PagePrefaulter prefault({{small.data() + 1, 10}, {nullptr, 0}}); }
  EXPECT_EQ(small[1], 'x');
}

}  // namespace
}  // namespace stepline
