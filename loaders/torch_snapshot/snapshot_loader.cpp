// Memory snapshot -> Trace (see snapshot_loader.h): read the pickle, turn
// each device trace entry into a compact record (its frames interned as a
// label and a stack), free the pickle's values, then replay the records per
// device into Kineto-style `[memory]` instants with running totals.
#include "loaders/torch_snapshot/snapshot_loader.h"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "model/page_prefault.h"
#include "loaders/torch_snapshot/pickle_reader.h"
#include "loaders/torch_snapshot/snapshot_entries.h"
#include "loaders/trace_builder.h"
#include "model/memory_snapshot_process.h"

namespace stepline::loaders {
// A named namespace of its own: unity builds put this file next to other loaders.
namespace torch_snapshot {
namespace {

struct Device {
  std::deque<Record> records;        // device trace order (a deque: no doubling copy of millions)
  std::vector<Record> before;        // blocks allocated before the capture and never freed in it
  int64_t reserved_at_snapshot = 0;  // the segments' total_size
  bool any_segment = false;
};

LoadError SchemaError(const std::string& path, std::string message) {
  return MakeLoadError(LoadErrorCode::kPickleInvalid, path, 0, std::move(message));
}

// Entries the reader handed over, by the id of the list they were appended to.
using Consumed = std::unordered_map<pickle::NodeId, std::deque<Record>>;

// Reads device_traces (the entries taken while reading, then any left in
// lists) and segments into per-device records.
bool Collect(const pickle::Document& doc, Converter* conv, Consumed* consumed, TraceBuilder* b,
             std::vector<Device>* devices, const std::string& path, LoadError* error) {
  const Value root = doc.root();
  const Value traces = root.Get("device_traces");
  const Value segments = root.Get("segments");
  if (root.tag() != Tag::kDict || (!traces.is_sequence() && !segments.is_sequence())) {
    *error = SchemaError(path, "the pickle is not a PyTorch memory snapshot: expected a dict with \"segments\" "
                               "and \"device_traces\" lists (torch.cuda.memory._dump_snapshot())");
    return false;
  }
  constexpr size_t kMaxDevices = 4096;
  const auto device_at = [&](int64_t d) -> Device* {
    if (d < 0 || static_cast<uint64_t>(d) >= kMaxDevices) return nullptr;
    if (devices->size() <= static_cast<size_t>(d)) devices->resize(static_cast<size_t>(d) + 1);
    return &(*devices)[static_cast<size_t>(d)];
  };
  uint64_t skipped = 0;
  int64_t index = 0;
  traces.ForEachKid([&](Value list) {
    Device* dev = device_at(index++);
    if (dev == nullptr) return;
    if (auto it = consumed->find(list.id()); it != consumed->end()) {
      dev->records = std::move(it->second);
      consumed->erase(it);
    }
    list.ForEachKid([&](Value e) {
      Record r;
      if (conv->Entry(e, &r)) dev->records.push_back(r);
      else ++skipped;
    });
  });
  segments.ForEachKid([&](Value s) {
    int64_t d = 0, total = 0;
    IntOf(s.Get("device"), &d);
    Device* dev = device_at(d);
    if (dev == nullptr) return;
    dev->any_segment = true;
    if (IntOf(s.Get("total_size"), &total)) dev->reserved_at_snapshot += total;
    s.Get("blocks").ForEachKid([&](Value block) {
      Record r;
      int64_t addr = 0;
      // active_allocated and active_pending_free both still count as allocated.
      if (!block.Get("state").as_string().starts_with("active_") || !IntOf(block.Get("address"), &addr) ||
          !IntOf(block.Get("size"), &r.size)) {
        return;
      }
      r.addr = static_cast<uint64_t>(addr);
      r.stack = conv->Frames(block.Get("frames"));
      dev->before.push_back(r);
    });
  });
  if (skipped > 0) {
    b->diag().Record(DiagCode::kMissingField, Diagnostics::kNoOffset,
                     std::to_string(skipped) + " device trace entries without an \"action\" were skipped");
  }
  return true;
}

struct Keys {
  StringId memory, oom, addr, bytes, allocated, reserved, device_id, stack, before;
  explicit Keys(TraceBuilder* b)
      : memory(b->Intern("[memory]")), oom(b->Intern("[OutOfMemory]")), addr(b->Intern("Addr")),
        bytes(b->Intern("Bytes")), allocated(b->Intern("Total Allocated")), reserved(b->Intern("Total Reserved")),
        device_id(b->Intern("Device Id")), stack(b->Intern("stack")),
        before(b->Intern("before capture")) {}
};

// Replays one device's records into instants. Levels before the first
// record: `allocated` counts what was freed in the capture without being
// allocated in it; `reserved` is the segments' size at the snapshot minus
// what the capture's segment events added. No `Device Type`: BuildMemoryTable
// takes an event without one for a GPU's, and millions of rows do not repeat it.
void Emit(TraceBuilder* b, const Keys& k, Converter& conv, int32_t device, Device& dev, TimeNs first_ts) {
  // Every record's action name was met (and classified) when it was read.
  const auto action = [&](const Record& r) { return conv.ActionOfName(r.action_name, {}); };
  // Which blocks live at the snapshot were allocated inside the capture, and
  // what the capture freed that it never allocated.
  std::unordered_map<uint64_t, int64_t> live;
  int64_t allocated = 0, reserved_delta = 0, lowest_delta = 0;
  for (const Record& r : dev.records) {
    const Action a = action(r);
    if (a == Action::kAlloc) {
      live[r.addr] = r.size;
    } else if (a == Action::kFreeCompleted) {
      if (live.erase(r.addr) == 0) allocated += r.size;
    } else if (a == Action::kSegmentAlloc || a == Action::kSegmentMap) {
      reserved_delta += r.size;
    } else if (a == Action::kSegmentFree || a == Action::kSegmentUnmap) {
      reserved_delta -= r.size;
      lowest_delta = std::min(lowest_delta, reserved_delta);
    }
  }
  std::erase_if(dev.before, [&](const Record& r) { return live.contains(r.addr); });
  live = {};
  int64_t reserved = std::max(dev.reserved_at_snapshot - reserved_delta, -lowest_delta);
  const bool has_reserved = dev.any_segment || reserved_delta != 0;
  if (dev.records.empty() && dev.before.empty()) return;

  const TrackId track = b->ThreadTrack(0, device);
  b->SetThreadName(0, device, "GPU " + std::to_string(device) + " memory", 0);
  b->SetThreadSortIndex(0, device, device);
  // At most 8 args an instant; no vector to grow and shrink millions of times.
  struct {
    std::array<Arg, 8> rows;
    size_t n = 0;
    void clear() { n = 0; }
    void push_back(const Arg& a) { rows[n++] = a; }
    std::span<const Arg> span() const { return {rows.data(), n}; }
  } args;
  const auto common = [&](const Record& r) {
    args.clear();
    if (device != 0) args.push_back({k.device_id, ArgValue::Int(device)});
    // The stack alone: BuildMemoryTable takes its first line, the
    // allocating frame, as the op (a `tf_op` beside it cost 9 bytes an event).
    if (r.stack != kNoStack) args.push_back({k.stack, ArgValue::String(conv.Stack(r.stack).first)});
  };
  // `Total Reserved` only where it differs from the last one said: it moves
  // at segment events only, and BuildMemoryTable carries it forward. On each
  // of millions of events it cost 17 bytes (most levels need 64 bits).
  // Only `[memory]` instants count as said: segment and OOM instants say
  // it always, and are no samples.
  int64_t said_reserved = -1;
  const auto levels = [&](bool sample = true) {
    args.push_back({k.allocated, ArgValue::Int(allocated)});
    if (has_reserved && (!sample || reserved != said_reserved)) {
      args.push_back({k.reserved, ArgValue::Int(reserved)});
      if (sample) said_reserved = reserved;
    }
  };
  for (const Record& r : dev.before) {
    allocated += r.size;
    common(r);
    args.push_back({k.addr, ArgValue::Uint(r.addr)});
    args.push_back({k.bytes, ArgValue::Int(r.size)});
    args.push_back({k.before, ArgValue::Bool(true)});
    levels();
    b->AddInstant({track, first_ts, k.memory, StringId::None(), b->AddArgs(args.span())});
  }
  while (!dev.records.empty()) {
    const Record r = dev.records.front();
    dev.records.pop_front();  // hands the deque's blocks back as the instants grow
    common(r);
    StringId name = r.action_name;
    const Action a = action(r);
    switch (a) {
      case Action::kAlloc:
      case Action::kFreeCompleted: {
        const int64_t bytes = a == Action::kAlloc ? r.size : -r.size;
        allocated += bytes;
        args.push_back({k.addr, ArgValue::Uint(r.addr)});
        args.push_back({k.bytes, ArgValue::Int(bytes)});
        levels();
        name = k.memory;
        break;
      }
      case Action::kSegmentAlloc:
      case Action::kSegmentMap:
      case Action::kSegmentFree:
      case Action::kSegmentUnmap: {
        const bool grows = a == Action::kSegmentAlloc || a == Action::kSegmentMap;
        reserved += grows ? r.size : -r.size;
        args.push_back({k.addr, ArgValue::Uint(r.addr)});
        args.push_back({k.bytes, ArgValue::Int(grows ? r.size : -r.size)});
        levels(false);
        break;
      }
      case Action::kOom:
        args.push_back({k.bytes, ArgValue::Int(r.size)});
        levels(false);
        name = k.oom;
        break;
      case Action::kFreeRequested:
      case Action::kSnapshot:
      case Action::kOther:
        args.push_back({k.addr, ArgValue::Uint(r.addr)});
        args.push_back({k.bytes, ArgValue::Int(r.size)});
        break;
    }
    b->AddInstant({track, r.ts_ns, name, StringId::None(), b->AddArgs(args.span())});
  }
  dev.records = {};
  dev.before = {};
}

// Entries without a time keep their order: the time of the entry before
// them, or, in a snapshot with no times at all, 1 µs per entry. Returns the
// first time (0 without times).
TimeNs PlaceInTime(std::vector<Device>* devices) {
  bool any_time = false;
  TimeNs first_ts = std::numeric_limits<TimeNs>::max();
  for (const Device& d : *devices) {
    for (const Record& r : d.records) {
      if (r.ts_ns == Record::kNoTime) continue;
      any_time = true;
      first_ts = std::min(first_ts, r.ts_ns);
    }
  }
  if (!any_time) first_ts = 0;
  for (Device& d : *devices) {
    TimeNs last = first_ts;
    int64_t n = 0;
    for (Record& r : d.records) {
      if (!any_time) r.ts_ns = 1000 * n++;
      else if (r.ts_ns == Record::kNoTime) r.ts_ns = last;
      last = r.ts_ns;
    }
    // The levels are replayed in time order, as BuildMemoryTable reads them.
    const auto by_time = [](const Record& a, const Record& b) { return a.ts_ns < b.ts_ns; };
    if (!std::is_sorted(d.records.begin(), d.records.end(), by_time)) {
      std::stable_sort(d.records.begin(), d.records.end(), by_time);
    }
  }
  return first_ts;
}

// Pre-faulting pays off once the tables span many pages (page_prefault.h).
constexpr size_t kMinPrefaultBytes = 16'000'000;

Result<Trace, LoadError> Convert(std::string_view bytes, const std::string& path, const ByteBuffer* release,
                                 LoadProgress* progress, unsigned threads, bool fast_path = true,
                                 SnapshotReadCounts* counts = nullptr) {
  SnapshotReadCounts unused_counts;
  if (counts == nullptr) counts = &unused_counts;
  TraceBuilder builder("torch-memory-snapshot");
  Converter conv(&builder);
  std::vector<Device> devices;
  {
    auto doc = std::make_unique<pickle::Document>();
    pickle::PickleError perr;
    // Strings are copied out of the input, so nothing behind the reader is read again.
    const auto consumed_bytes = [&](uint64_t at) {
      if (release != nullptr) release->ReleasePages(0, at);
      if (progress) progress->bytes_done.store(at);
    };
    // Device trace entries become records as they are appended to their list.
    Consumed consumed;
    std::vector<Record> batch;
    const auto sink = [&](const pickle::Document& d, pickle::NodeId list, std::span<const pickle::NodeId> items) {
      batch.clear();
      for (pickle::NodeId item : items) {
        if (!conv.Entry(Value(&d, item), &batch.emplace_back())) return false;
      }
      std::deque<Record>& records = consumed[list];
      records.insert(records.end(), batch.begin(), batch.end());
      counts->loop_entries += batch.size();
      return true;
    };
    // ... and, once a list's batch was taken, its later batches straight
    // from the bytes: each batch's records wait in `flat_batch` until the reader
    // says the batch is taken whole.
    std::vector<Record> flat_batch;
    pickle::NodeId flat_list = UINT32_MAX;
    pickle::FlatSink flat;
    if (fast_path) {
      flat.item = [&](const pickle::Document& d, pickle::NodeId list, const pickle::FlatItem& item) {
        if (flat_list != list) flat_batch.clear();
        flat_list = list;
        return conv.Entry(d, item, &flat_batch.emplace_back());
      };
      flat.end = [&](bool taken) {
        if (taken && flat_list != UINT32_MAX) {
          std::deque<Record>& records = consumed[flat_list];
          records.insert(records.end(), flat_batch.begin(), flat_batch.end());
          counts->fast_entries += flat_batch.size();
        }
        flat_batch.clear();
        flat_list = UINT32_MAX;
      };
    }
    if (!pickle::Read(bytes, pickle::ReadLimits{}, doc.get(), &perr, consumed_bytes, sink, flat)) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kPickleInvalid, path, perr.offset, perr.message));
    }
    if (progress && progress->cancel.load()) {
      return MakeUnexpected(MakeLoadError(LoadErrorCode::kCancelled, path, LoadError::kNoOffset, "load cancelled"));
    }
    LoadError error;
    if (!Collect(*doc, &conv, &consumed, &builder, &devices, path, &error)) return MakeUnexpected(std::move(error));
  }  // the pickle's values are freed here, before the instants are built
  const TimeNs first_ts = PlaceInTime(&devices);
  // The exact room for the instants' args (levels counted as two): no
  // doubling slack in the model's largest columns.
  size_t sets = 0, rows = 0, wide = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const auto count = [&](const Record& r) {
      ++sets;
      rows += (d != 0 ? 1 : 0) + (r.stack == kNoStack ? 0 : 1) + 4;
      // Values past 32 bits: the address, the size, and at most the two levels.
      wide += (r.addr > UINT32_MAX) + (r.size < INT32_MIN || r.size > INT32_MAX) + 2;
    };
    for (const Record& r : devices[d].records) count(r);
    for (const Record& r : devices[d].before) count(r);
  }
  builder.trace().mutable_args().Reserve(sets, rows, wide);
  builder.trace().mutable_instants().Reserve(sets);
  // The instants and their args are most of the model: their pages are
  // faulted in on the other core while this one fills them (page_prefault.h).
  // Not the wide values: their room is an upper bound.
  std::optional<PagePrefaulter> prefault;
  if (threads > 1 && bytes.size() >= kMinPrefaultBytes) {
    auto blocks = builder.trace().instants().ReservedStorage();
    for (const auto& b : builder.trace().args().ReservedStorage()) {
      if (b.first != builder.trace().args().wide_data()) blocks.push_back(b);
    }
    prefault.emplace(std::move(blocks));
  }
  const Keys keys(&builder);
  builder.SetProcessName(0, kMemorySnapshotProcessName, 0);
  for (size_t d = 0; d < devices.size(); ++d) {
    Emit(&builder, keys, conv, static_cast<int32_t>(d), devices[d], first_ts);
  }
  Trace trace = builder.Finish();
  trace.mutable_info().display_origin_ns = trace.span().start_ns;
  if (progress) progress->bytes_done.store(bytes.size());
  return trace;
}

}  // namespace
}  // namespace torch_snapshot

bool IsPickleHead(std::string_view head) {
  return head.size() >= 2 && static_cast<uint8_t>(head[0]) == 0x80 && static_cast<uint8_t>(head[1]) >= 2 &&
         static_cast<uint8_t>(head[1]) <= 5;
}

namespace {
unsigned Threads(const LoadOptions& options) {
  return options.threads > 0 ? static_cast<unsigned>(options.threads) : std::max(1u, std::thread::hardware_concurrency());
}
}  // namespace

Result<Trace, LoadError> LoadTorchSnapshot(const DecodedInput& input, const std::string& path,
                                           const LoadOptions& options, LoadProgress* progress) {
  if (progress) progress->bytes_total.store(input.bytes.size());
  return torch_snapshot::Convert(input.bytes.view(), path, &input.bytes, progress, Threads(options));
}

Result<Trace, LoadError> LoadTorchSnapshotBytes(std::string_view bytes, const std::string& name,
                                                const LoadOptions& options) {
  return torch_snapshot::Convert(bytes, name, nullptr, nullptr, Threads(options));
}

Result<Trace, LoadError> LoadTorchSnapshotBytesForTest(std::string_view bytes, bool fast_path,
                                                       SnapshotReadCounts* counts) {
  return torch_snapshot::Convert(bytes, "snapshot.pickle", nullptr, nullptr, 1, fast_path, counts);
}

}  // namespace stepline::loaders
