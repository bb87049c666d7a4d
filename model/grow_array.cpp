// GrowArray's blocks (see grow_array.h): malloc below kMappedBlockBytes, an
// anonymous mapping from there on, grown by mremap.
#include "model/grow_array.h"

#include <atomic>
#include <cstdlib>
#include <new>

#include "model/huge_pages.h"

#if defined(__linux__)
#include <sys/mman.h>
#define STEPLINE_GROW_BY_MREMAP 1
#endif

namespace stepline::grow_array_detail {
namespace {

// Mappings come in whole huge pages: growing then keeps them aligned.
constexpr size_t kMappingGranule = size_t{2} << 20;

std::atomic<uint64_t> allocation_count{0};
std::atomic<uint64_t> fail_at{0};  // 0: off; else the allocation_count that fails

// One relaxed add per block handed out: blocks grow geometrically, so this
// is a few thousand times per GB of model.
void CountAllocation() {
  const uint64_t n = allocation_count.fetch_add(1, std::memory_order_relaxed) + 1;
  const uint64_t fail = fail_at.load(std::memory_order_relaxed);
  if (fail != 0 && n == fail) throw std::bad_alloc();
}

size_t RoundUp(size_t bytes, size_t granule) { return (bytes + granule - 1) / granule * granule; }

bool IsMapped(size_t bytes) { return bytes >= kMappedBlockBytes; }

#if STEPLINE_GROW_BY_MREMAP
void* Map(size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  AdviseHugePages(p, bytes);
  return p;
}
#endif

}  // namespace

void FailNthAllocation(uint64_t n) {
  fail_at.store(n == 0 ? 0 : allocation_count.load() + n, std::memory_order_relaxed);
}

uint64_t AllocationCount() { return allocation_count.load(std::memory_order_relaxed); }

void* Allocate(size_t* bytes) {
  CountAllocation();
#if STEPLINE_GROW_BY_MREMAP
  if (IsMapped(*bytes)) {
    *bytes = RoundUp(*bytes, kMappingGranule);
    return Map(*bytes);
  }
#endif
  void* p = std::malloc(*bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void* Grow(void* block, size_t old_bytes, size_t used, size_t* bytes) {
  CountAllocation();
#if STEPLINE_GROW_BY_MREMAP
  if (IsMapped(old_bytes)) {
    *bytes = RoundUp(*bytes, kMappingGranule);
    void* p = ::mremap(block, old_bytes, *bytes, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) throw std::bad_alloc();
    // The advice covers the mapping it was given for; a grown one may be a
    // new mapping (the tail) or have moved, so it is given again.
    AdviseHugePages(p, *bytes);
    return p;
  }
  if (IsMapped(*bytes)) {  // from the heap to a mapping of its own
    void* p = Allocate(bytes);
    std::memcpy(p, block, used);
    std::free(block);
    return p;
  }
#endif
  (void)old_bytes;
  (void)used;
  void* p = std::realloc(block, *bytes);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

void Free(void* block, size_t bytes) {
  if (block == nullptr) return;
#if STEPLINE_GROW_BY_MREMAP
  if (IsMapped(bytes)) {
    ::munmap(block, bytes);
    return;
  }
#endif
  std::free(block);
}

}  // namespace stepline::grow_array_detail
