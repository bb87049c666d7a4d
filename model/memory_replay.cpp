// PoolReplay and Replay (see memory_replay.h).
#include "model/memory_replay.h"

#include <algorithm>

#include "model/trace.h"

namespace stepline::memory_replay {

void PoolReplay::Add(const RawEvent& e) {
  if (e.kind == EventKind::kOom) {
    pool_->ooms.push_back({e.ts_ns, e.bytes, e.allocated, e.reserved});
    return;
  }
  any_total_ |= e.allocated >= 0;
  const uint32_t index = static_cast<uint32_t>(pool_->samples.size());
  int64_t bytes = e.bytes;
  const bool is_free = e.kind == EventKind::kXFree || (e.kind == EventKind::kKineto && bytes < 0);
  if (is_free && !pool_->addressed) {
    // Without addresses a free cannot be paired: it only lowers the level.
    ++pool_->free_events;
    if (bytes > 0) bytes = -bytes;
  } else if (is_free) {
    ++pool_->free_events;
    const uint32_t open = e.has_addr ? open_at_.Find(e.addr) : kNoMemoryEvent;
    if (open != kNoMemoryEvent) {
      MemoryAllocation& a = pool_->allocations[open];
      a.free_ns = e.ts_ns;
      a.free_event = index;
      if (bytes == 0) bytes = -a.bytes;  // an XSpace free may omit its size
      open_at_.Erase(e.addr);
    } else {
      ++pool_->unmatched_frees;
      MemoryAllocation a;
      a.addr = e.addr;
      a.bytes = -bytes;
      a.free_ns = e.ts_ns;
      a.free_event = index;
      a.thread = e.track;
      a.op_name = e.op_name;
      before_.push_back(a);
    }
    if (bytes > 0) bytes = -bytes;
  } else {
    ++pool_->alloc_events;
    MemoryAllocation a;
    a.addr = e.addr;
    a.bytes = bytes;
    a.alloc_ns = e.ts_ns;
    a.alloc_event = index;
    a.thread = e.track;
    a.op = trace_.FindEnclosingSlice(e.track, e.ts_ns);
    a.op_name = !e.op_name.is_none() ? e.op_name : a.op.is_none() ? StringId::None() : trace_.slices().name()[a.op.index()];
    if (e.has_addr) {
      // A second alloc at an open address means its free was not recorded:
      // the older one stays open and the newer one takes the address.
      open_at_.Set(e.addr, static_cast<uint32_t>(pool_->allocations.size()));
    }
    pool_->allocations.push_back(a);
  }
  MemorySample s;
  s.ts_ns = e.ts_ns;
  s.bytes = bytes;
  s.allocated = e.allocated;
  // Reserved bytes stay as last recorded until an event says otherwise (a
  // memory snapshot says them only when they change).
  if (e.reserved >= 0) last_reserved_ = e.reserved;
  s.reserved = e.kind == EventKind::kKineto ? last_reserved_ : e.reserved;
  pool_->has_reserved |= e.reserved >= 0;
  if (e.available >= 0 && e.allocated >= 0) {
    pool_->capacity_bytes = std::max(pool_->capacity_bytes, e.allocated + std::max<int64_t>(e.reserved, 0) + e.available);
  }
  pool_->samples.push_back(s);
}

void PoolReplay::Finish() {
  pool_->relative = !any_total_;
  if (pool_->relative) {
    int64_t running = 0;
    for (MemorySample& s : pool_->samples) s.allocated = running += s.bytes;
  }
  if (pool_->addressed) {
    for (const MemoryAllocation& a : pool_->allocations) pool_->never_freed += a.free_event == kNoMemoryEvent;
  }
  if (!before_.empty()) pool_->allocations.insert(pool_->allocations.begin(), before_.begin(), before_.end());
  before_ = {};
  open_at_ = AddrMap();
}

// Replays a pool whose events came out of time order, or without an
// address somewhere (then no free is paired): sorted first.
void Replay(const Trace& trace, std::vector<RawEvent>& events, MemoryPool* pool) {
  if (!std::is_sorted(events.begin(), events.end(), ByTime)) std::stable_sort(events.begin(), events.end(), ByTime);
  for (const RawEvent& e : events) pool->addressed &= e.kind == EventKind::kOom || e.has_addr;
  pool->allocations.reserve(events.size() / 2 + 1);
  pool->samples.reserve(events.size());
  PoolReplay replay(trace, pool);
  for (const RawEvent& e : events) replay.Add(e);
  replay.Finish();
}

}  // namespace stepline::memory_replay
