// PagePrefaulter; see page_prefault.h.
#include "model/page_prefault.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#include "model/worker_thread.h"

namespace stepline {
namespace {

void Prefault(const std::vector<std::pair<const void*, size_t>>& blocks) {
#ifdef MADV_POPULATE_WRITE
  const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  for (const auto& [address, bytes] : blocks) {
    // Whole pages inside the block only: the partial pages at its ends may be
    // shared with other allocations, which are fine to touch but not ours to.
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(address) + page - 1) & ~(page - 1);
    const uintptr_t end = (reinterpret_cast<uintptr_t>(address) + bytes) & ~(page - 1);
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
  }
#else
  (void)blocks;
#endif
}

}  // namespace

PagePrefaulter::PagePrefaulter(std::vector<std::pair<const void*, size_t>> blocks)
    : thread_(StartThread([blocks = std::move(blocks)] { Prefault(blocks); })) {}

PagePrefaulter::~PagePrefaulter() { thread_.join(); }

}  // namespace stepline
