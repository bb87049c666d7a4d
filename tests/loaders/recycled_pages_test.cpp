// RecycledPages: released pages arrive where the writer writes next with the
// bytes they held (moved, not faulted in fresh), their old place reads as
// zero, and what cannot wait (a full queue, after Close) is given back.
#include "loaders/recycled_pages.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

namespace stepline::loaders {
namespace {

const uint64_t kPage = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));

class Mapping {
 public:
  explicit Mapping(uint64_t pages) : bytes_(pages * kPage) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
  }
  ~Mapping() {
    if (base_ != nullptr) ::munmap(base_, bytes_);
  }
  char* base() const { return base_; }
  // Page k filled with the byte 'a' + k % 26.
  void Fill(uint64_t first, uint64_t last) const {
    for (uint64_t k = first; k < last; ++k) std::memset(base_ + k * kPage, 'a' + static_cast<int>(k % 26), kPage);
  }
  bool PageIs(uint64_t k, char c) const {
    for (uint64_t i = 0; i < kPage; ++i) {
      if (base_[k * kPage + i] != c) return false;
    }
    return true;
  }

 private:
  uint64_t bytes_;
  char* base_ = nullptr;
};

char Pattern(uint64_t k) { return static_cast<char>('a' + k % 26); }

TEST(RecycledPagesTest, ReleasedPagesMoveWithTheirBytesAndTheirOldPlaceReadsZero) {
  Mapping m(64);
  ASSERT_NE(m.base(), nullptr);
  m.Fill(0, 8);
  if (!RecycledPages::KernelCanMove()) GTEST_SKIP() << "this kernel cannot move pages (MREMAP_DONTUNMAP, Linux 5.7)";
  RecycledPages pages(m.base(), 64 * kPage);
  pages.Add(0, 4 * kPage);
  pages.Add(4 * kPage, 8 * kPage);  // adjoins the first run
  EXPECT_EQ(pages.MoveInto(40 * kPage, 46 * kPage), 6 * kPage);
  EXPECT_TRUE(pages.enabled());
  for (uint64_t k = 0; k < 6; ++k) {
    EXPECT_TRUE(m.PageIs(40 + k, Pattern(k))) << "target page " << k << " does not hold the moved bytes";
    EXPECT_TRUE(m.PageIs(k, 0)) << "source page " << k << " still holds its bytes";
  }
  EXPECT_TRUE(m.PageIs(6, Pattern(6)));                          // still waiting: untouched
  EXPECT_EQ(pages.MoveInto(50 * kPage, 60 * kPage), 2 * kPage);  // the rest of the run
  EXPECT_TRUE(m.PageIs(50, Pattern(6)));
  EXPECT_TRUE(m.PageIs(51, Pattern(7)));
  EXPECT_TRUE(m.PageIs(52, 0));  // nothing left to move: unpopulated
  EXPECT_EQ(pages.moved_bytes(), 8 * kPage);
  // A moved page is an ordinary page: writable.
  m.base()[40 * kPage] = 'Z';
  EXPECT_EQ(m.base()[40 * kPage], 'Z');
}

TEST(RecycledPagesTest, WhatCannotWaitIsGivenBackAtOnce) {
  Mapping m(64);
  ASSERT_NE(m.base(), nullptr);
  m.Fill(0, 12);
  RecycledPages pages(m.base(), 4 * kPage);
  pages.Add(0, 4 * kPage);          // fits the queue
  pages.Add(4 * kPage, 6 * kPage);  // would not: given back
  EXPECT_TRUE(m.PageIs(0, Pattern(0)));
  EXPECT_TRUE(m.PageIs(4, 0));
  EXPECT_TRUE(m.PageIs(5, 0));
  pages.Close();  // the waiting run goes back
  for (uint64_t k = 0; k < 4; ++k) EXPECT_TRUE(m.PageIs(k, 0)) << k;
  pages.Add(8 * kPage, 10 * kPage);  // after Close: back at once
  EXPECT_TRUE(m.PageIs(8, 0));
  EXPECT_TRUE(m.PageIs(10, Pattern(10)));  // never added
  EXPECT_EQ(pages.MoveInto(40 * kPage, 48 * kPage), 0u);
  EXPECT_TRUE(m.PageIs(40, 0));
}

}  // namespace
}  // namespace stepline::loaders
