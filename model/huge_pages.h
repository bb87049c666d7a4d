// Transparent huge pages for the large buffers the model is built in. A
// fresh 4 KiB page costs a fault (2.5 to 4 us in a VM, measured on the 2-core
// build machine: 270 ms to fill 256 MB); a 2 MiB page costs one fault for
// 512 of them (105 ms for the same 256 MB). So large buffers are advised
// (madvise MADV_HUGEPAGE) right after they are allocated, before anything
// touches them (GrowArray, grow_array.h; the decode buffers). Advice only:
// where the kernel has no THP, nothing changes.
#pragma once

#include <cstddef>

namespace stepline {

// Buffers smaller than this are left alone (the advice is a system call).
inline constexpr size_t kHugePageAdviceMinBytes = size_t{4} << 20;

// Advises the whole pages of [data, data + bytes) when bytes reach the minimum.
void AdviseHugePages(const void* data, size_t bytes);

}  // namespace stepline
