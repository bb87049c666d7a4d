// BackgroundRelease: frees a load's large temporaries on a thread of its own.
//
// Giving back tens of MB of touched pages (munmap: each page uncharged and
// returned to the kernel) took 15 to 20 ms of the 413 MB demo's serial tail,
// on the thread every later step waits for, while the second core sat idle
// for most of that tail (perf). A temporary handed to Drop() is
// destroyed on a new thread instead; the destructor waits for them all, so
// nothing outlives the load that owns this.
#pragma once

#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace stepline::loaders {

class BackgroundRelease {
 public:
  // `parallel` false (a single-threaded load) frees in Drop() itself.
  explicit BackgroundRelease(bool parallel) : parallel_(parallel) {}
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;
  ~BackgroundRelease() = default;  // the jthreads join

  // Takes the storage of each owner (GrowArrays, vectors, tables) and frees
  // it off this thread, in one new thread per call; the owners are left empty.
  template <typename... T>
  void Drop(T&... owners) {
    static_assert((std::is_nothrow_move_constructible_v<T> && ...));
    std::tuple<T...> taken(std::move(owners)...);
    ((owners = T()), ...);
    if (!parallel_) return;  // freed here, as `taken` goes
    try {
      threads_.emplace_back([held = std::move(taken)]() mutable { std::tuple<T...> freed_here(std::move(held)); });
    } catch (...) {
      // No thread (or no room to keep one) when memory runs out: the lambda
      // that failed to start frees the storage here instead.
    }
  }

 private:
  bool parallel_;
  std::vector<std::jthread> threads_;
};

}  // namespace stepline::loaders
