// GallopPartition: std::partition_point over an index range that starts its
// probes next to `from`. The timeline's level-of-detail loops jump a pixel at
// a time through millions of sorted events; the answer is usually close, and
// probing near `from` first keeps the memory touched local (a plain binary
// search over the whole range misses the cache on every step).
#pragma once

#include <algorithm>
#include <cstddef>

namespace stepline::ui {

// The first i in [from, end) with !pred(i), or end; pred must be true on a
// prefix of the range and false after it. O(log(answer - from)) probes.
template <typename Pred>
size_t GallopPartition(size_t from, size_t end, Pred pred) {
  size_t lo = from, hi = from, step = 1;
  while (hi < end && pred(hi)) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  hi = std::min(hi, end);
  while (lo < hi) {  // pred(lo - 1) held (or lo == from); !pred(hi) or hi == end
    const size_t mid = lo + (hi - lo) / 2;
    if (pred(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The same with a guess of the answer (from <= guess <= end): probes outward
// from the guess, so a good guess touches only memory near it.
template <typename Pred>
size_t GallopPartitionNear(size_t from, size_t end, size_t guess, Pred pred) {
  if (guess <= from || guess > end) return GallopPartition(from, end, pred);
  if (pred(guess - 1)) return GallopPartition(guess, end, pred);
  size_t lo = from, hi = guess - 1, step = 1;  // the answer is in [lo, hi]
  while (hi > from) {
    const size_t probe = hi - std::min(step, hi - from);
    if (pred(probe)) {
      lo = probe + 1;
      break;
    }
    hi = probe;
    step *= 2;
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (pred(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace stepline::ui
