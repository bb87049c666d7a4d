// ByteBuffer::ReleasePages (see byte_source.h): a loader reading its input
// front to back gives the pages behind it back, so the input is resident
// only within the window being parsed.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "loaders/byte_source.h"

namespace stepline::loaders {

void ByteBuffer::ReleasePages(uint64_t begin, uint64_t end) const {
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  if (mapped_bytes_ == 0) {
    if (!single_reader_ || data_ == nullptr) return;
    // Heap memory is not page-aligned: whole pages strictly inside the range
    // only, never the allocator's header before data_ or the bytes after it.
    const uintptr_t base = reinterpret_cast<uintptr_t>(data_);
    const uintptr_t first = (base + begin + page - 1) / page * page;
    const uintptr_t last = (base + std::min<uint64_t>(end, size_)) / page * page;
    if (first < last) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
    return;
  }
  begin = begin / page * page;  // data_ is page-aligned: offsets and addresses agree
  end = std::min<uint64_t>(end, size_) / page * page;
  if (begin >= end) return;
  // The mapping is private and read-only, so its pages are never copies of
  // their own: dropping one only unmaps the page cache's page.
  ::madvise(data_ + begin, static_cast<size_t>(end - begin), MADV_DONTNEED);
}

}  // namespace stepline::loaders
