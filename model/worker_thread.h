// WorkerThread: a std::thread whose callable's exception is carried to the
// thread that joins it. An exception escaping a std::thread's function is
// std::terminate, so one std::bad_alloc on a parse helper would abort the
// whole process (and the window with everything it has open); here join()
// rethrows it on the joining thread, where the piece of work that ran out of
// memory fails on its own. Like std::jthread, a WorkerThread still running
// when destroyed is joined (an exception it held is then dropped: the caller
// is already unwinding from another one).
#pragma once

#include <exception>
#include <memory>
#include <new>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>

namespace stepline {

// Starts a std::thread, turning the failure to create one into
// std::bad_alloc: what runs out is memory too (each thread maps its stack;
// under an address-space limit that is what fails first), and the callers'
// boundaries handle running out of memory, not std::system_error.
template <typename F>
std::thread StartThread(F&& f) {
  try {
    return std::thread(std::forward<F>(f));
  } catch (const std::system_error&) {
    throw std::bad_alloc();
  }
}

class WorkerThread {
 public:
  WorkerThread() = default;
  template <typename F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, WorkerThread>)
  explicit WorkerThread(F&& f) : error_(std::make_unique<std::exception_ptr>()) {
    // The slot is on the heap so the thread's pointer to it survives a move.
    thread_ = StartThread([slot = error_.get(), f = std::forward<F>(f)]() mutable {
      try {
        f();
      } catch (...) {
        *slot = std::current_exception();
      }
    });
  }
  WorkerThread(WorkerThread&&) noexcept = default;
  WorkerThread& operator=(WorkerThread&& other) noexcept {
    if (this != &other) {
      Wait();
      thread_ = std::move(other.thread_);
      error_ = std::move(other.error_);
    }
    return *this;
  }
  ~WorkerThread() { Wait(); }

  bool joinable() const { return thread_.joinable(); }
  // Waits for the thread; rethrows what its function threw.
  void join() {
    thread_.join();
    if (error_ && *error_) std::rethrow_exception(std::exchange(*error_, nullptr));
  }

 private:
  void Wait() noexcept {
    if (thread_.joinable()) thread_.join();
  }

  std::thread thread_;
  std::unique_ptr<std::exception_ptr> error_;
};

// Joins every thread, then rethrows the first exception any of them threw
// (joining them all first: none may outlive the data it works on).
template <typename Threads>
void JoinAll(Threads& threads) {
  std::exception_ptr first;
  for (WorkerThread& t : threads) {
    if (!t.joinable()) continue;
    try {
      t.join();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

}  // namespace stepline
