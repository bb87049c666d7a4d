// RecycledPages (see recycled_pages.h): the queue of released page runs and
// the moves.
#include "loaders/recycled_pages.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4  // linux/mman.h; glibc 2.36's sys/mman.h lacks it
#endif

namespace stepline::loaders {
namespace {

// Each move may add up to three mappings (the target's split and the moved
// run); 4096 moves stay far below the usual limit of 65,530 even for a
// 30 GB file (moves are of a parser chunk or more: ~4 MB).
constexpr uint64_t kMaxMoves = 4096;

}  // namespace

void RecycledPages::GiveBack(uint64_t begin, uint64_t end) const {
  if (begin < end) ::madvise(base_ + begin, static_cast<size_t>(end - begin), MADV_DONTNEED);
}

void RecycledPages::Add(uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  {
    std::lock_guard lock(mu_);
    if (!closed_ && enabled_ && queued_ + (end - begin) <= max_queued_) {
      if (!queue_.empty() && queue_.back().second == begin) {
        queue_.back().second = end;  // one run, one move
      } else {
        queue_.emplace_back(begin, end);
      }
      queued_ += end - begin;
      return;
    }
  }
  GiveBack(begin, end);
}

uint64_t RecycledPages::MoveInto(uint64_t begin, uint64_t end) {
  struct Move {
    uint64_t from, to, bytes;
  };
  std::vector<Move> moves;
  {
    std::lock_guard lock(mu_);
    while (enabled_ && begin < end && !queue_.empty()) {
      auto& run = queue_.front();
      const uint64_t bytes = std::min(run.second - run.first, end - begin);
      moves.push_back({run.first, begin, bytes});
      run.first += bytes;
      begin += bytes;
      queued_ -= bytes;
      if (run.first == run.second) queue_.pop_front();
      if (++moves_ >= kMaxMoves) enabled_ = false;
    }
  }
  // The runs taken are this caller's alone now: moved outside the lock.
  uint64_t moved = 0;
  for (const Move& m : moves) {
    void* at = ::mremap(base_ + m.from, static_cast<size_t>(m.bytes), static_cast<size_t>(m.bytes),
                        MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, base_ + m.to);
    if (at == MAP_FAILED) {
      GiveBack(m.from, m.from + m.bytes);
      std::lock_guard lock(mu_);
      enabled_ = false;
      continue;
    }
    moved += m.bytes;
  }
  std::lock_guard lock(mu_);
  moved_ += moved;
  return moved;
}

void RecycledPages::Close() {
  std::deque<std::pair<uint64_t, uint64_t>> waiting;
  {
    std::lock_guard lock(mu_);
    closed_ = true;
    waiting.swap(queue_);
    queued_ = 0;
  }
  for (const auto& [begin, end] : waiting) GiveBack(begin, end);
}

bool RecycledPages::KernelCanMove() {
  static const bool can = [] {
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    void* p = ::mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return false;
    char* base = static_cast<char*>(p);
    base[0] = 1;
    const bool moved =
        ::mremap(base, page, page, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, base + page) != MAP_FAILED &&
        base[page] == 1 && base[0] == 0;
    ::munmap(base, 2 * page);
    return moved;
  }();
  return can;
}

uint64_t RecycledPages::moved_bytes() const {
  std::lock_guard lock(mu_);
  return moved_;
}

bool RecycledPages::enabled() const {
  std::lock_guard lock(mu_);
  return enabled_;
}

}  // namespace stepline::loaders
