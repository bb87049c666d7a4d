// Replaying one memory pool's events (BuildMemoryTable, memory_table.cpp):
// the raw event a memory instant reads to, allocations matched to frees by
// address, and the levels after each event. Internal to the model.
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/ids.h"
#include "model/memory_table.h"
#include "model/time.h"

namespace stepline {
class Trace;
}

namespace stepline::memory_replay {

enum class EventKind : uint8_t { kKineto, kOom, kXAlloc, kXFree };

// One memory instant with the args we use pulled out.
struct RawEvent {
  TimeNs ts_ns = 0;
  int64_t seq = 0;  // Kineto `Ev Idx`, else the instant row: the order of events at one timestamp
  EventKind kind = EventKind::kKineto;
  int64_t bytes = 0;
  uint64_t addr = 0;
  bool has_addr = false;
  int64_t allocated = -1, reserved = -1, available = -1;
  TrackId track;
  StringId op_name;
};

// Open allocations by address: open addressing with linear probing, since a
// snapshot's millions of allocs and frees each insert or erase one (a node
// allocation each in std::unordered_map).
class AddrMap {
 public:
  // The row open at `addr`, or kNoMemoryEvent.
  uint32_t Find(uint64_t addr) const {
    if (size_ == 0) return kNoMemoryEvent;
    for (size_t i = Slot(addr);; i = (i + 1) & mask_) {
      if (slots_[i].row == kNoMemoryEvent) return kNoMemoryEvent;
      if (slots_[i].addr == addr) return slots_[i].row;
    }
  }
  void Set(uint64_t addr, uint32_t row) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    size_t i = Slot(addr);
    while (slots_[i].row != kNoMemoryEvent && slots_[i].addr != addr) i = (i + 1) & mask_;
    size_ += slots_[i].row == kNoMemoryEvent;
    slots_[i] = {addr, row};
  }
  void Erase(uint64_t addr) {
    if (size_ == 0) return;
    size_t i = Slot(addr);
    while (slots_[i].addr != addr || slots_[i].row == kNoMemoryEvent) {
      if (slots_[i].row == kNoMemoryEvent) return;
      i = (i + 1) & mask_;
    }
    // Backward shift: later entries of the run move up into the hole.
    for (size_t j = (i + 1) & mask_; slots_[j].row != kNoMemoryEvent; j = (j + 1) & mask_) {
      const size_t home = Slot(slots_[j].addr);
      if (((j - home) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].row = kNoMemoryEvent;
    --size_;
  }

 private:
  struct Entry {
    uint64_t addr = 0;
    uint32_t row = kNoMemoryEvent;
  };
  size_t Slot(uint64_t addr) const { return ((addr >> 4) * 0x9E3779B97F4A7C15ull >> 20) & mask_; }
  void Grow() {
    std::vector<Entry> old = std::move(slots_);
    slots_.assign(std::max<size_t>(1024, 2 * old.size()), Entry{});
    mask_ = slots_.size() - 1;
    size_ = 0;
    for (const Entry& e : old) {
      if (e.row != kNoMemoryEvent) Set(e.addr, e.row);
    }
  }
  std::vector<Entry> slots_;
  size_t mask_ = 0, size_ = 0;
};

// Replays one pool's events, given in time order: levels, allocation
// matching, OOMs. Levels are written as recorded (`Total Allocated`) and,
// when no event recorded one, made the running sum at Finish().
class PoolReplay {
 public:
  PoolReplay(const Trace& trace, MemoryPool* pool) : trace_(trace), pool_(pool) {}

  void Add(const RawEvent& e);  // in time order
  void Finish();

 private:
  const Trace& trace_;
  MemoryPool* pool_;
  bool any_total_ = false;
  int64_t last_reserved_ = -1;
  AddrMap open_at_;  // addr -> allocation row still open
  std::vector<MemoryAllocation> before_;             // frees of allocations made before the capture
};


inline bool ByTime(const RawEvent& a, const RawEvent& b) { return std::tie(a.ts_ns, a.seq) < std::tie(b.ts_ns, b.seq); }

// Replays a pool whose events came out of time order, or without an
// address somewhere (then no free is paired): sorted first.
void Replay(const Trace& trace, std::vector<RawEvent>& events, MemoryPool* pool);

}  // namespace stepline::memory_replay
