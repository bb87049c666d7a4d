// AdviseHugePages (see huge_pages.h).
#include "model/huge_pages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace stepline {

bool HugePagesWanted() {
  static const bool wanted = [] {
    const char* v = std::getenv("STEPLINE_HUGE_PAGES");
    return v != nullptr && *v != '\0' && *v != '0';
  }();
  return wanted;
}

void AdviseHugePages(const void* data, size_t bytes, bool wanted) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < kHugePageAdviceMinBytes || !wanted) return;
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  // Whole pages inside the block only: the partial pages at its ends may
  // belong to other allocations.
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(page - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
  (void)wanted;
#endif
}

}  // namespace stepline
