// MemoryTable: what each device (or allocator) holds over time, rebuilt from
// the memory events a loader keeps as instants: Kineto `[memory]` /
// `[OutOfMemory]` and XSpace `MemoryAllocation` / `MemoryDeallocation`.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "model/ids.h"
#include "model/time.h"

namespace stepline {

class Trace;

// alloc_ns of an allocation whose alloc happened before the capture (only its
// free was recorded), and free_ns of one never freed within the capture.
inline constexpr TimeNs kAllocBeforeCapture = std::numeric_limits<TimeNs>::min();
inline constexpr TimeNs kStillOpen = std::numeric_limits<TimeNs>::max();
inline constexpr uint32_t kNoMemoryEvent = std::numeric_limits<uint32_t>::max();

enum class MemoryDeviceKind : uint8_t { kGpu = 0, kTpu, kOther, kCpu };

// One memory event's effect: the levels right after it.
struct MemorySample {
  TimeNs ts_ns = 0;
  int64_t bytes = 0;      // + allocated, - freed
  int64_t allocated = 0;  // bytes in use after the event (running sum of `bytes` when relative)
  int64_t reserved = -1;  // bytes the allocator holds (PyTorch's caching allocator); -1 not recorded
};

// One allocation matched to its free by address (an alloc at an address
// closes nothing; the next free at that address closes it). In a pool that
// is not `addressed`, one row per alloc whose free is unknown (kStillOpen).
struct MemoryAllocation {
  uint64_t addr = 0;
  int64_t bytes = 0;
  TimeNs alloc_ns = kAllocBeforeCapture;
  TimeNs free_ns = kStillOpen;
  uint32_t alloc_event = kNoMemoryEvent;  // index into MemoryPool::samples; kNoMemoryEvent before the capture
  uint32_t free_event = kNoMemoryEvent;   // kNoMemoryEvent when still open
  TrackId thread;                         // the thread of the alloc (of the free when alloc is unknown)
  SliceId op;                             // innermost host slice enclosing the alloc on that thread; None if none
  StringId op_name;                       // XSpace `tf_op` when given, else the name of `op`; 0 = unknown
  bool open() const { return alloc_event == kNoMemoryEvent || free_event == kNoMemoryEvent; }
};

struct MemoryOom {
  TimeNs ts_ns = 0;
  int64_t bytes = 0;      // the request that failed
  int64_t allocated = -1, reserved = -1;
};

// One curve: a device (Kineto: Device Type + Device Id) or an XSpace allocator.
struct MemoryPool {
  std::string name;  // "GPU 0", "TPU 1", "CPU", or the allocator's own name ("gpu_host_bfc")
  MemoryDeviceKind kind = MemoryDeviceKind::kOther;
  int32_t device_id = -1;
  std::string allocator;            // XSpace allocator_name; empty for Kineto
  bool relative = false;            // only `Bytes` recorded: levels are a running sum from the capture start
  bool has_reserved = false;        // some sample has reserved >= 0
  // Every alloc and free carries an address, so frees pair with allocations
  // (2021-era Kineto records `Bytes` without `Addr`: then no free can be
  // paired, allocations have no free time and the unmatched and never-freed
  // counts are unknown, left 0).
  bool addressed = true;
  int64_t capacity_bytes = -1;      // the device's memory when known (deviceProperties, XSpace stats)
  std::vector<MemorySample> samples;          // time order
  std::vector<MemoryAllocation> allocations;  // by alloc time, allocations from before the capture first
  std::vector<MemoryOom> ooms;
  uint64_t alloc_events = 0, free_events = 0;
  uint64_t unmatched_frees = 0;  // frees with no recorded alloc (allocated before the capture)
  uint64_t never_freed = 0;      // allocs with no free in the capture
};

struct MemoryTable {
  std::vector<MemoryPool> pools;  // GPUs by id, TPUs, other allocators, CPU
  uint64_t memory_events = 0;     // every instant recognised as a memory or OOM event
};

// Rebuilds the pools from a finalized trace. Cost: one pass over the
// instants plus a sort of each pool's events.
MemoryTable BuildMemoryTable(const Trace& trace);

// True for the instant names BuildMemoryTable reads (so `info` can count them apart).
bool IsMemoryEventName(std::string_view name);

// The device's name in c10::DeviceType order: 1 (CUDA) and 6 (HIP) are "GPU".
std::string KinetoDeviceName(int64_t device_type, int64_t device_id);

}  // namespace stepline
