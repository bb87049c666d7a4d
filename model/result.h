// Result<T, E>: a value or an error, for C++20 where std::expected is missing.
// Loaders return Result<Trace, LoadError>; nothing in the model throws.
#pragma once

#include <utility>
#include <variant>

#include "model/sl_assert.h"

namespace stepline {

template <typename E>
struct Unexpected {
  E error;
};
template <typename E>
Unexpected<E> MakeUnexpected(E e) {
  return Unexpected<E>{std::move(e)};
}

template <typename T, typename E>
class Result {
 public:
  Result(T value) : data_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Unexpected<E> err) : data_(std::in_place_index<1>, std::move(err.error)) {}  // NOLINT

  bool ok() const { return data_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    SL_ASSERT(ok());
    return std::get<0>(data_);
  }
  const T& value() const& {
    SL_ASSERT(ok());
    return std::get<0>(data_);
  }
  T&& value() && {
    SL_ASSERT(ok());
    return std::get<0>(std::move(data_));
  }
  const E& error() const {
    SL_ASSERT(!ok());
    return std::get<1>(data_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, E> data_;
};

}  // namespace stepline
