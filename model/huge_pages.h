// Transparent huge pages for the large buffers the model is built in. A
// fresh 4 KiB page costs a fault (2.5 to 4 us in a VM, measured on the 2-core
// build machine: 270 ms to fill 256 MB); a 2 MiB page costs one fault for
// 512 of them (105 ms for the same 256 MB). So large buffers are advised
// (madvise MADV_HUGEPAGE) right after they are allocated, before anything
// touches them. Advice only: where the kernel has no THP, nothing changes.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace stepline {

// Buffers smaller than this are left alone (the advice is a system call).
inline constexpr size_t kHugePageAdviceMinBytes = size_t{4} << 20;

// Advises the whole pages of [data, data + bytes) when bytes reach the minimum.
void AdviseHugePages(const void* data, size_t bytes);

// vector.reserve(n), with the advice on a new block. The elements move in
// after the advice: copied before it, they would fault in small pages.
template <typename T>
void ReserveAdvised(std::vector<T>& v, size_t n) {
  if (n <= v.capacity()) return;
  if (n * sizeof(T) < kHugePageAdviceMinBytes) {
    v.reserve(n);
    return;
  }
  std::vector<T> grown;
  grown.reserve(n);
  AdviseHugePages(grown.data(), grown.capacity() * sizeof(T));
  grown.insert(grown.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  v.swap(grown);
}

// vector.push_back(x) that grows a full vector itself (doubling, as the
// standard library does), so that the new block is advised before use.
template <typename T>
void PushBackAdvised(std::vector<T>& v, const T& x) {
  if (v.size() == v.capacity()) {
    const T copy = x;  // x may be an element of v, which the growth moves
    ReserveAdvised(v, std::max<size_t>(16, 2 * v.capacity()));
    v.push_back(copy);
    return;
  }
  v.push_back(x);
}

}  // namespace stepline
