// GrowArray's blocks (see grow_array.h): malloc below kMappedBlockBytes, an
// anonymous mapping from there on, grown by mremap.
#include "model/grow_array.h"

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

void* Allocate(size_t* bytes) {
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
