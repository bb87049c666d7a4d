// BuildMemoryTable: reads the memory instants of a finalized trace into
// per-device pools (samples, allocations matched by address, OOM markers).
#include "model/memory_table.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

#include "model/memory_snapshot_process.h"
#include "model/memory_replay.h"
#include "model/page_prefault.h"
#include "model/trace.h"

namespace stepline {
namespace {

using memory_replay::EventKind;
using memory_replay::PoolReplay;
using memory_replay::RawEvent;
using memory_replay::ByTime;
using memory_replay::Replay;

// Interned ids of the names and keys we look for; None when the trace never
// mentions one (then no arg can carry it).
struct Keys {
  StringId memory, oom, x_alloc, x_free;
  StringId bytes, total_allocated, total_reserved, addr, device_type, device_id, ev_idx;
  StringId bytes_allocated, bytes_reserved, bytes_available, allocation_bytes, requested_bytes, x_addr,
      allocator_name, tf_op, index_on_host, stack;
  explicit Keys(const StringPool& s)
      : memory(s.Find("[memory]")), oom(s.Find("[OutOfMemory]")), x_alloc(s.Find("MemoryAllocation")),
        x_free(s.Find("MemoryDeallocation")), bytes(s.Find("Bytes")), total_allocated(s.Find("Total Allocated")),
        total_reserved(s.Find("Total Reserved")), addr(s.Find("Addr")), device_type(s.Find("Device Type")),
        device_id(s.Find("Device Id")), ev_idx(s.Find("Ev Idx")), bytes_allocated(s.Find("bytes_allocated")),
        bytes_reserved(s.Find("bytes_reserved")), bytes_available(s.Find("bytes_available")),
        allocation_bytes(s.Find("allocation_bytes")), requested_bytes(s.Find("requested_bytes")),
        x_addr(s.Find("addr")), allocator_name(s.Find("allocator_name")), tf_op(s.Find("tf_op")),
        index_on_host(s.Find("index_on_host")), stack(s.Find("stack")) {}
};

// Identity of a pool while collecting: Kineto (type, id) or an XSpace allocator.
struct PoolKey {
  int kind = 0;  // 0 Kineto, 1 XSpace allocator name, 2 XSpace index_on_host
  int64_t a = 0, b = 0;
  StringId name;
  auto operator<=>(const PoolKey&) const = default;
};

// c10::DeviceType, by value.
constexpr std::array<std::string_view, 21> kDeviceTypeNames = {
    "CPU", "CUDA", "MKLDNN", "OPENGL", "OPENCL", "IDEEP", "HIP", "FPGA", "MAIA", "XLA", "VULKAN",
    "METAL", "XPU", "MPS", "META", "HPU", "VE", "LAZY", "IPU", "MTIA", "PRIVATEUSE1"};

// "GPU_4_bfc" -> 4; -1 when the allocator is not a GPU's.
int32_t GpuOfAllocator(std::string_view name) {
  if (!name.starts_with("GPU_")) return -1;
  int32_t id = -1;
  const char* first = name.data() + 4;
  auto [ptr, ec] = std::from_chars(first, name.data() + name.size(), id);
  return ec == std::errc() && ptr != first ? id : -1;
}

// totalGlobalMem per device id from Kineto's `deviceProperties` (compact JSON
// array of flat objects): each object's "id" and "totalGlobalMem".
std::map<int64_t, int64_t> DeviceCapacities(const Trace& trace) {
  std::map<int64_t, int64_t> out;
  const StringId key = trace.strings().Find("deviceProperties");
  ArgValue v;
  if (key.is_none() || trace.info().metadata.is_none() || !trace.args().Find(trace.info().metadata, key, &v) ||
      (v.type != ArgType::kJson && v.type != ArgType::kString)) {
    return out;
  }
  const std::string_view text = trace.str(v.as_string());
  const auto number_after = [&](std::string_view obj, std::string_view field, int64_t* n) {
    const size_t at = obj.find(field);
    if (at == std::string_view::npos) return false;
    size_t i = at + field.size();
    while (i < obj.size() && (obj[i] == ' ' || obj[i] == ':')) ++i;
    return std::from_chars(obj.data() + i, obj.data() + obj.size(), *n).ec == std::errc();
  };
  size_t pos = 0;
  while ((pos = text.find('{', pos)) != std::string_view::npos) {
    const size_t end = text.find('}', pos);
    if (end == std::string_view::npos) break;
    const std::string_view obj = text.substr(pos, end - pos);
    int64_t id = 0, mem = 0;
    if (number_after(obj, "\"id\"", &id) && number_after(obj, "\"totalGlobalMem\"", &mem)) out[id] = mem;
    pos = end + 1;
  }
  return out;
}

MemoryPool NewPool(const Trace& trace, const PoolKey& key) {
  MemoryPool pool;
  if (key.kind == 0) {
    pool.name = KinetoDeviceName(key.a, key.b);
    pool.device_id = static_cast<int32_t>(key.b);
    pool.kind = key.a == 0 ? MemoryDeviceKind::kCpu
                : (key.a == 1 || key.a == 6) ? MemoryDeviceKind::kGpu
                                             : MemoryDeviceKind::kOther;
    if (pool.kind == MemoryDeviceKind::kCpu) pool.device_id = -1;
  } else if (key.kind == 1) {
    pool.allocator = std::string(trace.str(key.name));
    const int32_t gpu = GpuOfAllocator(pool.allocator);
    if (gpu >= 0) {
      pool.kind = MemoryDeviceKind::kGpu;
      pool.device_id = gpu;
      pool.name = "GPU " + std::to_string(gpu);
    } else if (pool.allocator == "cpu") {
      pool.kind = MemoryDeviceKind::kCpu;
      pool.name = "CPU";
    } else {
      pool.name = pool.allocator;
    }
  } else {
    // XSpace TPU runtimes record no allocator name, only the chip's index on the host.
    pool.kind = MemoryDeviceKind::kTpu;
    pool.device_id = static_cast<int32_t>(key.a);
    pool.name = "TPU " + std::to_string(key.a);
  }
  return pool;
}

}  // namespace

bool IsMemoryEventName(std::string_view name) {
  return name == "[memory]" || name == "[OutOfMemory]" || name == "MemoryAllocation" || name == "MemoryDeallocation";
}

std::string KinetoDeviceName(int64_t device_type, int64_t device_id) {
  if (device_type == 0) return "CPU";
  if (device_type == 1 || device_type == 6) return "GPU " + std::to_string(device_id);
  const std::string kind = device_type > 0 && size_t(device_type) < kDeviceTypeNames.size()
                               ? std::string(kDeviceTypeNames[size_t(device_type)])
                               : "device type " + std::to_string(device_type);
  return kind + " " + std::to_string(device_id);
}

namespace {

// Per track: whether it belongs to a memory snapshot's process; empty when
// no process is one, or every process is (a snapshot opened alone).
std::vector<bool> SnapshotTracks(const Trace& trace) {
  const StringId name = trace.strings().Find(kMemorySnapshotProcessName);
  if (name.is_none()) return {};
  std::vector<bool> of_snapshot(trace.tracks().size(), false);
  bool other = false;
  for (size_t t = 0; t < of_snapshot.size(); ++t) {
    of_snapshot[t] = trace.processes().name(trace.tracks().process(TrackId::FromIndex(t))) == name;
    other |= !of_snapshot[t];
  }
  return other ? of_snapshot : std::vector<bool>{};
}

// Reads memory instants into RawEvents and the key of their pool.
class EventReader {
 public:
  explicit EventReader(const Trace& trace)
      : trace_(trace), k_(trace.strings()), snapshot_tracks_(SnapshotTracks(trace)) {}

  bool IsMemoryName(StringId name) const {
    return !name.is_none() && (name == k_.memory || name == k_.oom || name == k_.x_alloc || name == k_.x_free);
  }
  bool any_names() const { return !(k_.memory.is_none() && k_.oom.is_none() && k_.x_alloc.is_none() && k_.x_free.is_none()); }

  // False for an instant that is no memory event (or not the snapshot's, when one is open with a trace).
  bool Read(size_t i, RawEvent* out, PoolKey* key_out) const {
    const InstantTable& instants = trace_.instants();
    const StringId name = instants.name()[i];
    EventKind kind;
    if (name.is_none()) return false;
    if (name == k_.memory) kind = EventKind::kKineto;
    else if (name == k_.oom) kind = EventKind::kOom;
    else if (name == k_.x_alloc) kind = EventKind::kXAlloc;
    else if (name == k_.x_free) kind = EventKind::kXFree;
    else return false;
    // A memory snapshot opened with the trace (loaders/torch_snapshot)
    // records the same allocations in full: its events alone make the pools.
    if (!snapshot_tracks_.empty() && !snapshot_tracks_[instants.track()[i].index()]) return false;
    RawEvent e;
    e.kind = kind;
    e.ts_ns = instants.ts_ns()[i];
    e.seq = static_cast<int64_t>(i);
    e.track = instants.track()[i];
    PoolKey key;
    key.kind = kind == EventKind::kKineto || kind == EventKind::kOom ? 0 : 2;
    key.a = 1;  // Kineto events without a Device Type are a GPU's (an OOM names only the device)
    int64_t x_alloc_bytes = -1, x_requested = -1;
    StringId stack;
    const ArgTable& args = trace_.args();
    const ArgSetId set = instants.arg_set()[i];
    for (uint32_t r = args.set_begin(set), j = 0; r < args.set_end(set); ++r, ++j) {
      const ArgValue v = args.value(r);
      int64_t n = 0;
      const bool numeric = v.ToInt64(&n);
      const bool text = v.type == ArgType::kString;
      switch (FieldOf(args.key()[r], j)) {
        case Field::kBytes: if (numeric) e.bytes = n; break;
        case Field::kAllocated: if (numeric) e.allocated = n; break;
        case Field::kReserved: if (numeric) e.reserved = n; break;
        case Field::kAddr:
          if (numeric) {
            e.addr = static_cast<uint64_t>(n);
            e.has_addr = true;
          }
          break;
        case Field::kDeviceType: if (numeric) key.a = n; break;
        case Field::kDeviceId: if (numeric) key.b = n; break;
        case Field::kEvIdx: if (numeric && key.kind == 0) e.seq = n; break;
        case Field::kAvailable: if (numeric) e.available = n; break;
        case Field::kAllocationBytes: if (numeric) x_alloc_bytes = n; break;
        case Field::kRequestedBytes: if (numeric) x_requested = n; break;
        case Field::kAllocatorName:
          if (text) {
            key.kind = 1;
            key.name = v.as_string();
          }
          break;
        case Field::kIndexOnHost: if (numeric && key.kind == 2) key.a = n; break;
        case Field::kTfOp: if (text) e.op_name = v.as_string(); break;
        case Field::kStack: if (text) stack = v.as_string(); break;
        case Field::kOther: break;
      }
    }
    // A memory snapshot's event names its op by its stack: the first line.
    if (e.op_name.is_none() && !stack.is_none()) e.op_name = FirstLine(stack);
    if (kind == EventKind::kXAlloc || kind == EventKind::kXFree) {
      // XSpace: bytes_reserved is the allocator's stack reservation, counted
      // in capacity only; the level is bytes_allocated.
      if (kind == EventKind::kXAlloc) {
        e.bytes = x_alloc_bytes >= 0 ? x_alloc_bytes : std::max<int64_t>(x_requested, 0);
      } else {
        e.bytes = x_alloc_bytes >= 0 ? -x_alloc_bytes : 0;
      }
      if (key.kind == 2) key.b = 0;
      if (e.reserved >= 0 && e.available >= 0 && e.allocated >= 0) {
        e.available += e.reserved;  // capacity = allocated + reserved + available
      }
      e.reserved = -1;
    }
    *out = e;
    *key_out = key;
    return true;
  }

 private:
  // The interned first line of an interned stack (the loader interns both),
  // looked up once per distinct stack.
  StringId FirstLine(StringId stack) const {
    if (stack.index() >= first_lines_.size()) first_lines_.resize(stack.index() + 1, kUnknown);
    uint32_t& line = first_lines_[stack.index()];
    if (line == kUnknown) {
      const std::string_view text = trace_.str(stack);
      line = trace_.strings().Find(text.substr(0, text.find('\n'))).value;
    }
    return StringId(line);
  }

  enum class Field : uint8_t {
    kOther, kBytes, kAllocated, kReserved, kAddr, kDeviceType, kDeviceId, kEvIdx, kAvailable, kAllocationBytes,
    kRequestedBytes, kAllocatorName, kIndexOnHost, kTfOp, kStack
  };
  // Which field an arg key names. Events of one kind list their args in one
  // order, so the key last met at position `j` of a set mostly comes back there.
  Field FieldOf(StringId a, uint32_t j) const {
    FieldSlot& slot = by_position_[j % by_position_.size()];
    if (slot.key == a && !a.is_none()) return slot.field;
    Field f = Field::kOther;
    if (a.is_none()) f = Field::kOther;
    else if (a == k_.bytes) f = Field::kBytes;
    else if (a == k_.total_allocated || a == k_.bytes_allocated) f = Field::kAllocated;
    else if (a == k_.total_reserved || a == k_.bytes_reserved) f = Field::kReserved;
    else if (a == k_.addr || a == k_.x_addr) f = Field::kAddr;
    else if (a == k_.device_type) f = Field::kDeviceType;
    else if (a == k_.device_id) f = Field::kDeviceId;
    else if (a == k_.ev_idx) f = Field::kEvIdx;
    else if (a == k_.bytes_available) f = Field::kAvailable;
    else if (a == k_.allocation_bytes) f = Field::kAllocationBytes;
    else if (a == k_.requested_bytes) f = Field::kRequestedBytes;
    else if (a == k_.allocator_name) f = Field::kAllocatorName;
    else if (a == k_.index_on_host) f = Field::kIndexOnHost;
    else if (a == k_.tf_op) f = Field::kTfOp;
    else if (a == k_.stack) f = Field::kStack;
    slot = {a, f};
    return f;
  }
  struct FieldSlot {
    StringId key;
    Field field = Field::kOther;
  };
  static constexpr uint32_t kUnknown = UINT32_MAX;

  const Trace& trace_;
  Keys k_;
  std::vector<bool> snapshot_tracks_;
  mutable std::vector<uint32_t> first_lines_;  // by stack StringId; kUnknown until looked up
  mutable std::array<FieldSlot, 16> by_position_{};
};

// A pool while its events are read: replayed as they come while they come
// in time order with addresses (a snapshot's, and most Kineto traces'),
// which keeps millions of events from being held twice; otherwise collected
// and replayed sorted after the scan.
struct PoolState {
  explicit PoolState(MemoryPool p) : pool(std::move(p)) {}
  MemoryPool pool;
  std::unique_ptr<PoolReplay> replay;
  bool streaming = true;
  bool any = false;
  RawEvent last;
};

}  // namespace

MemoryTable BuildMemoryTable(const Trace& trace) {
  MemoryTable table;
  const EventReader reader(trace);
  if (!reader.any_names()) return table;
  const InstantTable& instants = trace.instants();
  std::map<PoolKey, uint32_t> pool_of;
  std::vector<PoolKey> keys;
  std::vector<std::unique_ptr<PoolState>> states;
  PoolKey last_key;
  uint32_t last_pool = UINT32_MAX;  // consecutive events are mostly of one pool: skip the map
  const auto pool_index = [&](const PoolKey& key) {
    if (last_pool == UINT32_MAX || !(key == last_key)) {
      auto [it, inserted] = pool_of.try_emplace(key, static_cast<uint32_t>(keys.size()));
      if (inserted) {
        keys.push_back(key);
        states.push_back(std::make_unique<PoolState>(NewPool(trace, key)));
        PoolState& st = *states.back();
        st.replay = std::make_unique<PoolReplay>(trace, &st.pool);
      }
      last_key = key;
      last_pool = it->second;
    }
    return last_pool;
  };
  // A pool reserves room for every memory event on the track of its first
  // event (a snapshot's device track: exactly its events): growing millions
  // of samples by doubling faulted in twice their memory.
  std::vector<uint32_t> per_track(trace.tracks().size(), 0);
  for (size_t i = 0; i < instants.size(); ++i) per_track[instants.track()[i].index()] += reader.IsMemoryName(instants.name()[i]);
  constexpr uint32_t kMinPrefaultEvents = 1 << 20;
  std::vector<std::unique_ptr<PagePrefaulter>> prefault;  // joined before the pools move
  bool any_collected = false;
  for (size_t i = 0; i < instants.size(); ++i) {
    RawEvent e;
    PoolKey key;
    if (!reader.Read(i, &e, &key)) continue;
    ++table.memory_events;
    PoolState& st = *states[pool_index(key)];
    if (!st.any && st.streaming) {
      const uint32_t n = per_track[e.track.index()];
      // Room for every event as an allocation too (address space only: a
      // page is memory once written), so no copy of millions on growing.
      st.pool.samples.reserve(n);
      st.pool.allocations.reserve(n);
      // Millions of samples (a memory snapshot's): their pages are faulted
      // in on another core while this one fills them (page_prefault.h);
      // half the events are allocations in a capture that frees what it allocates.
      if (n >= kMinPrefaultEvents) {
        prefault.push_back(std::make_unique<PagePrefaulter>(std::vector<std::pair<const void*, size_t>>{
            {st.pool.samples.data(), st.pool.samples.capacity() * sizeof(MemorySample)},
            {st.pool.allocations.data(), (n / 2) * sizeof(MemoryAllocation)}}));
      }
    }
    if (!st.streaming) continue;
    if ((st.any && ByTime(e, st.last)) || (e.kind != EventKind::kOom && !e.has_addr)) {
      // Out of order, or a free that cannot be paired: collect this pool instead.
      st.streaming = false;
      st.replay.reset();
      st.pool = NewPool(trace, key);
      any_collected = true;
      continue;
    }
    st.any = true;
    st.last = e;
    st.replay->Add(e);
  }
  if (any_collected) {
    std::vector<std::vector<RawEvent>> collected(states.size());
    for (size_t i = 0; i < instants.size(); ++i) {
      RawEvent e;
      PoolKey key;
      if (!reader.Read(i, &e, &key)) continue;
      const uint32_t p = pool_index(key);
      if (!states[p]->streaming) collected[p].push_back(e);
    }
    for (size_t p = 0; p < states.size(); ++p) {
      if (!states[p]->streaming) Replay(trace, collected[p], &states[p]->pool);
    }
  }
  prefault.clear();
  const std::map<int64_t, int64_t> capacities = DeviceCapacities(trace);
  for (size_t p = 0; p < keys.size(); ++p) {
    PoolState& st = *states[p];
    if (st.replay) st.replay->Finish();
    MemoryPool& pool = st.pool;
    if (pool.kind == MemoryDeviceKind::kGpu && keys[p].kind == 0) {
      if (auto it = capacities.find(pool.device_id); it != capacities.end()) pool.capacity_bytes = it->second;
    }
    table.pools.push_back(std::move(pool));
  }
  std::stable_sort(table.pools.begin(), table.pools.end(), [](const MemoryPool& a, const MemoryPool& b) {
    return std::tie(a.kind, a.device_id, a.name) < std::tie(b.kind, b.device_id, b.name);
  });
  return table;
}

}  // namespace stepline
