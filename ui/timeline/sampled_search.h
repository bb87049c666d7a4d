// SampledPartition: a search through millions of sorted keys that first
// narrows to kSampleStride of them in a small array holding every
// kSampleStride-th key, then touches only those few in the big columns.
//
// Why: at fit zoom a frame makes a few thousand searches (a pixel column or a
// fold each) over 10 M slices and their gaps. A gallop over the big columns
// missed the cache on most of its probes, and the frame waited on memory
// (8.7 ms a fit frame, half of it in these searches). The samples,
// 8 bytes per kSampleStride keys (2.5 MB for 10 M), stay in cache from one
// search to the next, so a search costs a few misses instead of a dozen.
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "model/time.h"
#include "ui/timeline/gallop.h"

namespace stepline::ui {

inline constexpr size_t kSampleStride = 32;

// key(0), key(kSampleStride), key(2 * kSampleStride), ... for positions < n.
template <typename Key>
std::vector<TimeNs> SampleKeys(size_t n, Key key) {
  std::vector<TimeNs> samples;
  samples.reserve((n + kSampleStride - 1) / kSampleStride);
  for (size_t i = 0; i < n; i += kSampleStride) samples.push_back(key(i));
  return samples;
}

// The first i in [from, end) with !pred(key(i)), or end: what
// GallopPartition(from, end, pred(key(i))) returns. pred must hold on a prefix
// of [from, end) (the keys are sorted there), and samples[j] must be key(j *
// kSampleStride) for every sampled position in [from, end) (SampleKeys over
// the positions the range indexes; outside the range they may be anything).
// Empty samples: a gallop from `from`, for rows nobody sampled.
template <typename Key, typename Pred>
size_t SampledPartition(std::span<const TimeNs> samples, size_t from, size_t end, Key key, Pred pred) {
  if (from >= end || !pred(key(from))) return from;  // the usual answer of a fold: nothing to skip
  if (samples.empty()) return GallopPartition(from + 1, end, [&](size_t i) { return pred(key(i)); });
  // The sampled positions after `from` and before `end`: j in [s_begin, s_end).
  const size_t s_begin = from / kSampleStride + 1;
  const size_t s_end = std::min(samples.size(), (end - 1) / kSampleStride + 1);
  const size_t j = s_begin >= s_end ? s_end : GallopPartition(s_begin, s_end, [&](size_t s) { return pred(samples[s]); });
  // pred held at from and at every sample before j; it fails at sample j (if
  // there is one): the answer is in (max(from, (j - 1) * stride), j * stride].
  size_t lo = std::max(from, (j - 1) * kSampleStride) + 1;
  size_t hi = std::min(end, j * kSampleStride);
  if (j == s_end) hi = end;  // no failing sample: up to the range's end
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (pred(key(mid))) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace stepline::ui
