// RecycledPages: the pages of one private anonymous mapping that its reader
// is done with, moved to where its writer is about to write, instead of given
// back to the kernel and faulted in fresh a moment later.
//
// Why: a streamed .zst/.gz load decodes into a buffer whose pages the parser
// gives back behind it (decode_stream.h), so every decoded byte lands on a
// fresh page. In the VM we measure on a fresh page costs 0.55-0.75 s/GB to
// fault in and zero, on the decoder thread, which competes with both parser
// threads on 2 cores. Moving a page is mremap(MREMAP_DONTUNMAP) of its table
// entry (Linux 5.7): no zeroing, no allocation, and the old address stays
// mapped, reading as zero as a given-back page does.
//
// The writer must overwrite every moved byte it publishes: a moved page
// holds the stale bytes it held before.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <utility>

namespace stepline::loaders {

class RecycledPages {
 public:
  // `base`: the page-aligned start of the mapping; offsets below are from it.
  // At most `max_queued_bytes` wait for reuse (the rest is given back).
  RecycledPages(char* base, uint64_t max_queued_bytes) : base_(base), max_queued_(max_queued_bytes) {}
  ~RecycledPages() { Close(); }
  RecycledPages(const RecycledPages&) = delete;
  RecycledPages& operator=(const RecycledPages&) = delete;

  // Nothing reads page-aligned [begin, end) again: it waits for reuse, or is
  // given back (MADV_DONTNEED) when the queue is full or closed.
  void Add(uint64_t begin, uint64_t end);
  // Moves waiting pages into page-aligned [begin, end), which nobody has
  // touched or reads; returns the bytes moved (the rest stays unpopulated).
  uint64_t MoveInto(uint64_t begin, uint64_t end);
  // Gives back every waiting page; later Add() calls give back at once.
  void Close();

  // Whether this kernel moves pages so (a one-page probe, made once).
  static bool KernelCanMove();

  uint64_t moved_bytes() const;
  // False once the kernel refused a move (no MREMAP_DONTUNMAP) or too many
  // moves were made: each may split the mapping, and a process may hold
  // only so many mappings (vm.max_map_count).
  bool enabled() const;

 private:
  void GiveBack(uint64_t begin, uint64_t end) const;

  char* const base_;
  const uint64_t max_queued_;
  mutable std::mutex mu_;
  std::deque<std::pair<uint64_t, uint64_t>> queue_;  // oldest first
  uint64_t queued_ = 0;
  uint64_t moved_ = 0;
  uint64_t moves_ = 0;
  bool closed_ = false;
  bool enabled_ = true;
};

}  // namespace stepline::loaders
