// Memory snapshot -> Trace (see snapshot_loader.h): read the pickle, turn
// each device trace entry into a compact record (its frames interned as a
// label and a stack), free the pickle's values, then replay the records per
// device into Kineto-style `[memory]` instants with running totals.
#include "loaders/torch_snapshot/snapshot_loader.h"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "loaders/torch_snapshot/pickle_reader.h"
#include "loaders/trace_builder.h"
#include "model/memory_snapshot_process.h"

namespace stepline::loaders {
// A named namespace of its own: unity builds put this file next to other loaders.
namespace torch_snapshot {
namespace {

using pickle::Tag;
using pickle::Value;

enum class Action : uint8_t {
  kAlloc, kFreeRequested, kFreeCompleted, kSegmentAlloc, kSegmentFree, kSegmentMap, kSegmentUnmap, kOom,
  kSnapshot, kOther
};

Action ActionOf(std::string_view a) {
  if (a == "alloc") return Action::kAlloc;
  if (a == "free_requested") return Action::kFreeRequested;
  if (a == "free_completed") return Action::kFreeCompleted;
  if (a == "segment_alloc") return Action::kSegmentAlloc;
  if (a == "segment_free") return Action::kSegmentFree;
  if (a == "segment_map") return Action::kSegmentMap;
  if (a == "segment_unmap") return Action::kSegmentUnmap;
  if (a == "oom") return Action::kOom;
  if (a == "snapshot") return Action::kSnapshot;
  return Action::kOther;
}

// One device trace entry (or one block live before the capture) with the
// pickle values it needs already read: entries become records as the reader
// meets them, so the whole trace never sits in pickle values. 32 bytes.
constexpr uint32_t kNoStack = UINT32_MAX;  // an entry without frames

struct Record {
  TimeNs ts_ns = kNoTime;
  uint64_t addr = 0;
  int64_t size = 0;
  uint32_t stack = kNoStack;  // Converter::Stack(): the whole stack and its first line
  StringId action_name;  // the action as written (names the instant of an unknown action)
  static constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();
};

struct Device {
  std::deque<Record> records;        // device trace order (a deque: no doubling copy of millions)
  std::vector<Record> before;        // blocks allocated before the capture and never freed in it
  int64_t reserved_at_snapshot = 0;  // the segments' total_size
  bool any_segment = false;
};

bool IntOf(Value v, int64_t* out) {
  if (!v.is_int()) return false;
  *out = v.as_int();
  return true;
}

class Converter {
 public:
  explicit Converter(TraceBuilder* builder) : b_(builder) {}

  // The stack of a `frames` list, interned once per distinct list of frame
  // values (PyTorch shares one dict per distinct frame, so most entries
  // repeat a stack seen before). Its first line, the innermost frame, is
  // label(stack).
  uint32_t Frames(Value frames) {
    if (!frames.is_sequence()) return kNoStack;
    key_.clear();
    uint64_t hash = 0x9E3779B97F4A7C15ull;
    frames.ForEachKid([&](Value f) {
      key_.push_back(f.serial());
      hash = (hash ^ f.serial()) * 0xFF51AFD7ED558CCDull;
    });
    if (key_.empty()) return kNoStack;
    hash ^= hash >> 33;
    // Stacks with this hash are chained through StackIds::next; the serials compared settle it.
    auto [slot, inserted] = by_hash_.try_emplace(hash, kNoStack);
    for (uint32_t i = slot->second; i != kNoStack; i = stack_ids_[i].next) {
      const StackIds& known = stack_ids_[i];
      if (known.key_count == key_.size() &&
          std::equal(key_.begin(), key_.end(), key_store_.begin() + static_cast<ptrdiff_t>(known.key_begin))) {
        return i;
      }
    }
    std::string stack;
    std::string first;
    frames.ForEachKid([&](Value f) {
      const std::string label = FrameLabel(f);
      if (first.empty()) first = label;
      if (!stack.empty()) stack += '\n';
      stack += label;
    });
    const auto index = static_cast<uint32_t>(stack_ids_.size());
    stack_ids_.push_back({b_->Intern(stack), b_->Intern(first), key_store_.size(), static_cast<uint32_t>(key_.size()),
                          slot->second});
    key_store_.insert(key_store_.end(), key_.begin(), key_.end());
    slot->second = index;
    return index;
  }
  // The interned stack and its first line (the label) of a Frames() index.
  std::pair<StringId, StringId> Stack(uint32_t index) const {
    return {stack_ids_[index].stack, stack_ids_[index].label};
  }

  // "name (filename:line)"; what is missing is left out.
  static std::string FrameLabel(Value f) {
    const std::string_view name = f.Get("name").as_string();
    const std::string_view file = f.Get("filename").as_string();
    int64_t line = -1;
    std::string out = name.empty() ? std::string("?") : std::string(name);
    if (!file.empty()) {
      out += " (" + std::string(file);
      if (IntOf(f.Get("line"), &line)) out += ":" + std::to_string(line);
      out += ")";
    }
    return out;
  }

  Action ActionOfName(StringId name, std::string_view text) {
    auto [it, inserted] = actions_.try_emplace(name.value, Action::kOther);
    if (inserted) it->second = ActionOf(text);
    return it->second;
  }

  // A device trace entry (a dict with an "action" string) as a record;
  // false for anything else. One pass over the dict: entries are millions.
  bool Entry(Value e, Record* out) {
    if (e.tag() != Tag::kDict) return false;
    // The reader offers every list's items, and most lists are an entry's
    // `frames`: a dict whose first key names a frame field is no entry, and
    // saying so at once spares a scan of its keys (9 million on a 1 GB file).
    bool frame = false;
    e.ForFirstKid([&](Value first_key) {
      const std::string_view k = first_key.as_string();
      frame = k == "name" || k == "filename" || k == "line";
    });
    if (frame) return false;
    Record r;
    std::string_view action;
    Value frames, time;
    Value key;
    bool is_key = true;
    e.ForEachKid([&](Value v) {
      if (is_key) {
        key = v;
        is_key = false;
        return;
      }
      is_key = true;
      int64_t n = 0;
      switch (FieldOf(key)) {
        case Field::kAction: action = v.as_string(); break;
        case Field::kAddr:
          if (IntOf(v, &n)) r.addr = static_cast<uint64_t>(n);
          break;
        case Field::kSize: IntOf(v, &r.size); break;
        case Field::kTime: time = v; break;
        case Field::kFrames: frames = v; break;
        case Field::kOther: break;
      }
    });
    if (action.empty()) return false;
    if (action != last_action_text_) {
      last_action_ = b_->Intern(action);
      last_action_text_ = std::string(action);
      ActionOfName(last_action_, action);
    }
    r.action_name = last_action_;
    if (time.is_int() || time.tag() == Tag::kFloat) {
      const double us = time.as_double();
      // Epoch microseconds in ns stay inside int64 until the year 2262.
      if (us > -9.2e15 && us < 9.2e15) r.ts_ns = time.is_int() ? time.as_int() * 1000 : static_cast<TimeNs>(us * 1000.0);
    }
    r.stack = Frames(frames);
    *out = r;
    return true;
  }

  StringId Intern(std::string_view s) { return b_->Intern(s); }

 private:
  enum class Field : uint8_t { kOther, kAction, kAddr, kSize, kTime, kFrames };
  // Which entry field a key names. Snapshots memoize their keys, so the same
  // few key values (by serial, which no other value ever takes) come back
  // millions of times: a small cache spares comparing their text each time.
  Field FieldOf(Value key) {
    const uint32_t serial = key.serial();
    FieldSlot& slot = fields_[serial % fields_.size()];
    if (slot.serial == serial) return slot.field;
    const std::string_view k = key.as_string();
    Field f = Field::kOther;
    if (k == "action") f = Field::kAction;
    else if (k == "addr") f = Field::kAddr;
    else if (k == "size") f = Field::kSize;
    else if (k == "time_us") f = Field::kTime;
    else if (k == "frames") f = Field::kFrames;
    slot = {serial, f};
    return f;
  }
  struct FieldSlot {
    uint32_t serial = UINT32_MAX;
    Field field = Field::kOther;
  };
  std::array<FieldSlot, 16> fields_{};

  TraceBuilder* b_;
  struct StackIds {
    StringId stack, label;
    size_t key_begin = 0;  // its frames' serials in key_store_
    uint32_t key_count = 0;
    uint32_t next = kNoStack;  // the next stack of the same hash
  };
  std::vector<uint32_t> key_;                        // the serials of the frames being looked up
  std::unordered_map<uint64_t, uint32_t> by_hash_;   // hash of the serials -> first stack with it
  std::vector<StackIds> stack_ids_;
  std::vector<uint32_t> key_store_;
  std::unordered_map<uint32_t, Action> actions_;
  std::string last_action_text_;  // entries alternate between few actions: skip most interning
  StringId last_action_;
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
  StringId memory, oom, addr, bytes, allocated, reserved, device_id, tf_op, stack, before;
  explicit Keys(TraceBuilder* b)
      : memory(b->Intern("[memory]")), oom(b->Intern("[OutOfMemory]")), addr(b->Intern("Addr")),
        bytes(b->Intern("Bytes")), allocated(b->Intern("Total Allocated")), reserved(b->Intern("Total Reserved")),
        device_id(b->Intern("Device Id")), tf_op(b->Intern("tf_op")), stack(b->Intern("stack")),
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
    if (r.stack != kNoStack) {
      const auto [stack, label] = conv.Stack(r.stack);
      args.push_back({k.tf_op, ArgValue::String(label)});
      args.push_back({k.stack, ArgValue::String(stack)});
    }
  };
  const auto levels = [&] {
    args.push_back({k.allocated, ArgValue::Int(allocated)});
    if (has_reserved) args.push_back({k.reserved, ArgValue::Int(reserved)});
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
        levels();
        break;
      }
      case Action::kOom:
        args.push_back({k.bytes, ArgValue::Int(r.size)});
        levels();
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

Result<Trace, LoadError> Convert(std::string_view bytes, const std::string& path, const ByteBuffer* release,
                                 LoadProgress* progress) {
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
      return true;
    };
    if (!pickle::Read(bytes, pickle::ReadLimits{}, doc.get(), &perr, consumed_bytes, sink)) {
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
  size_t sets = 0, rows = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const auto count = [&](const Record& r) {
      ++sets;
      rows += (d != 0 ? 1 : 0) + (r.stack == kNoStack ? 0 : 2) + 4;
    };
    for (const Record& r : devices[d].records) count(r);
    for (const Record& r : devices[d].before) count(r);
  }
  builder.trace().mutable_args().Reserve(sets, rows);
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

Result<Trace, LoadError> LoadTorchSnapshot(const DecodedInput& input, const std::string& path,
                                           const LoadOptions& /*options*/, LoadProgress* progress) {
  if (progress) progress->bytes_total.store(input.bytes.size());
  return torch_snapshot::Convert(input.bytes.view(), path, &input.bytes, progress);
}

Result<Trace, LoadError> LoadTorchSnapshotBytes(std::string_view bytes, const std::string& name,
                                                const LoadOptions& /*options*/) {
  return torch_snapshot::Convert(bytes, name, nullptr, nullptr);
}

}  // namespace stepline::loaders
