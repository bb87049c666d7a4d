// Column<T>: the storage of one model column. Either it owns a GrowArray (a
// trace being built, or loaded by a parser) or it views memory someone else
// keeps alive (a column cache file mapped read-only, whose mapping the Trace
// holds). Readers see a contiguous range either way, so spans and indexing do
// not care which; only the building-phase mutators require owned storage.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include "model/grow_array.h"
#include "model/sl_assert.h"

namespace stepline {

template <typename T>
class Column {
 public:
  // Mapped bytes are used in place, so the element must be plain bytes.
  static_assert(std::is_trivially_copyable_v<T>);
  using value_type = T;

  Column() = default;
  explicit Column(GrowArray<T>&& owned) : owned_(std::move(owned)) {}
  // A column over `view`, which must outlive it (and be T-aligned).
  static Column Borrow(std::span<const T> view) {
    Column c;
    c.view_ = view;
    c.borrowed_ = true;
    return c;
  }

  bool borrowed() const { return borrowed_; }
  size_t size() const { return borrowed_ ? view_.size() : owned_.size(); }
  bool empty() const { return size() == 0; }
  // Elements held: the owned capacity, or the viewed span.
  size_t capacity() const { return borrowed_ ? view_.size() : owned_.capacity(); }
  const T* data() const { return borrowed_ ? view_.data() : owned_.data(); }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T& operator[](size_t i) const { return data()[i]; }
  const T& back() const { return data()[size() - 1]; }

  // Building phase (owned storage only).
  T* data() { return Owned().data(); }
  T* begin() { return Owned().data(); }
  T* end() { return Owned().data() + owned_.size(); }
  T& operator[](size_t i) { return owned_[i]; }
  // Large columns grow in place (grow_array.h).
  void push_back(const T& v) { Owned().push_back(v); }
  void reserve(size_t n) { Owned().reserve(n); }
  void resize(size_t n) { Owned().resize(n); }
  void resize_for_overwrite(size_t n) { Owned().resize_for_overwrite(n); }
  void assign(size_t n, const T& v) { Owned().assign(n, v); }
  void clear() { Owned().clear(); }
  void swap(GrowArray<T>& other) { Owned().swap(other); }
  GrowArray<T>& Owned() {
    SL_ASSERT(!borrowed_ && "a borrowed (mapped) column is read-only");
    return owned_;
  }

 private:
  GrowArray<T> owned_;
  std::span<const T> view_;
  bool borrowed_ = false;
};

}  // namespace stepline
