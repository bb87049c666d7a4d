// GrowArray<T>: a growable array of trivially copyable T, the owned storage
// of a model column (column.h) and of a loader's large pending lists.
//
// Why not std::vector: a vector grows by allocating a block twice the size,
// copying every element into it and freeing the old one. For the columns of
// a GB-scale trace that means each element's pages are first-touched twice
// (the kernel zeroes every fresh page: 1 to 2 GB/s in the VM we measure on),
// the copy itself, and a moment with the old and the new block both
// resident. Here a large block (>= kMappedBlockBytes) is an anonymous
// mapping of its own, and growing it is mremap(MREMAP_MAYMOVE): the kernel
// extends the mapping or moves its page tables, the elements stay in the
// pages they were written to, and only the new tail is ever zeroed. Small
// blocks use malloc/realloc. Large blocks are advised into transparent
// huge pages before anything touches them only when STEPLINE_HUGE_PAGES=1
// (huge_pages.h says why not by default).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

namespace stepline {

namespace grow_array_detail {

// Blocks of at least this many bytes are mappings (grown in place by mremap).
inline constexpr size_t kMappedBlockBytes = size_t{4} << 20;

// A block of at least `*bytes` bytes; `*bytes` becomes its usable size.
// Throws std::bad_alloc when there is no memory.
void* Allocate(size_t* bytes);
// The block grown to at least `*bytes` (its first `used` bytes kept), which
// may move it; `*bytes` becomes its usable size. `old_bytes` is what
// Allocate or Grow returned for it.
void* Grow(void* block, size_t old_bytes, size_t used, size_t* bytes);
void Free(void* block, size_t bytes);

// Test hook (allocation-failure injection): from now on, the `n`th block
// Allocate or Grow hands out, counted over all threads, throws std::bad_alloc
// instead, as an exhausted machine would; 0 turns it off. Tests walk `n` over
// a load or an analysis to show every failure point ends as an error, never
// a crash or a leak.
void FailNthAllocation(uint64_t n);
// How many blocks Allocate and Grow handed out so far (the range of `n`).
uint64_t AllocationCount();

}  // namespace grow_array_detail

template <typename T>
class GrowArray {
 public:
  // Blocks move by mremap or realloc, never by copy construction.
  static_assert(std::is_trivially_copyable_v<T>);
  using value_type = T;

  GrowArray() = default;
  GrowArray(const GrowArray& other) { append(other.data(), other.size()); }
  GrowArray(GrowArray&& other) noexcept { swap(other); }
  GrowArray& operator=(const GrowArray& other) {
    if (this != &other) {
      clear();
      append(other.data(), other.size());
    }
    return *this;
  }
  GrowArray& operator=(GrowArray&& other) noexcept {
    GrowArray taken(std::move(other));
    swap(taken);
    return *this;
  }
  ~GrowArray() { grow_array_detail::Free(data_, block_bytes_); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return block_bytes_ / sizeof(T); }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }
  operator std::span<const T>() const { return {data_, size_}; }

  void reserve(size_t n) {
    if (n <= capacity()) return;
    size_t bytes = n * sizeof(T);
    void* block = data_ == nullptr ? grow_array_detail::Allocate(&bytes)
                                   : grow_array_detail::Grow(data_, block_bytes_, size_ * sizeof(T), &bytes);
    data_ = static_cast<T*>(block);
    block_bytes_ = bytes;
  }
  void push_back(const T& v) {
    if (size_ == capacity()) {
      const T copy = v;  // v may be an element of this array, which growing may move
      reserve(Grown(size_ + 1));
      data_[size_++] = copy;
      return;
    }
    data_[size_++] = v;
  }
  void append(const T* p, size_t n) {
    if (n == 0) return;
    if (size_ + n > capacity()) {
      // p may point into this array: keep its offset across the move.
      const bool inside = p >= data_ && p < data_ + size_;
      const size_t at = inside ? static_cast<size_t>(p - data_) : 0;
      reserve(Grown(size_ + n));
      if (inside) p = data_ + at;
    }
    std::memmove(static_cast<void*>(data_ + size_), p, n * sizeof(T));
    size_ += n;
  }
  // New elements are value-initialized, as std::vector's are.
  void resize(size_t n) {
    if (n > capacity()) reserve(Grown(n));
    if (n > size_) std::uninitialized_value_construct(data_ + size_, data_ + n);
    size_ = n;
  }
  // New elements are left as they are (uninitialized): for a caller that
  // writes every one, perhaps from several threads, without a first pass of
  // zeroes touching each page on one thread.
  void resize_for_overwrite(size_t n) {
    if (n > capacity()) reserve(Grown(n));
    size_ = n;
  }
  void resize(size_t n, const T& v) {
    const T copy = v;
    if (n > capacity()) reserve(Grown(n));
    if (n > size_) std::uninitialized_fill(data_ + size_, data_ + n, copy);
    size_ = n;
  }
  void assign(size_t n, const T& v) {
    const T copy = v;  // v may be an element of this array
    size_ = 0;
    resize(n, copy);
  }
  void clear() { size_ = 0; }
  // Gives the block back (a cleared array keeps it).
  void release() {
    GrowArray none;
    swap(none);
  }
  void swap(GrowArray& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(block_bytes_, other.block_bytes_);
  }

 private:
  // Geometric growth, as vector's: amortized O(1) appends also when a
  // mapping cannot grow in place.
  size_t Grown(size_t needed) const { return needed > 2 * capacity() ? needed : (capacity() < 8 ? 16 : 2 * capacity()); }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t block_bytes_ = 0;  // what Allocate/Grow gave
};

}  // namespace stepline
