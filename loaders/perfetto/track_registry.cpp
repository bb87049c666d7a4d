// TrackRegistry: descriptor decoding and the descriptor -> model track mapping
// (see track_registry.h).
#include "loaders/perfetto/track_registry.h"

#include <string>

#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {

// Walks one message, calling fn(field) per field; false on malformed bytes.
template <typename Fn>
bool ForEachField(std::string_view bytes, uint64_t base_offset, uint64_t* error_offset, const char** error, Fn&& fn) {
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), base_offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error_offset = reader.error().offset;
      *error = reader.error().what;
      return false;
    }
    if (!fn(f, reader)) return false;
  }
  return true;
}

// Track name when the descriptor has none, from what kind of counter it is.
std::string CounterName(const TrackDescription& d) {
  switch (d.counter_type) {
    case 1: return "thread time";
    case 2: return "instruction count";
    default: return d.unit_name.empty() ? "counter " + std::to_string(d.uuid) : d.unit_name;
  }
}

constexpr int kMaxParentHops = 64;  // parent chains are short; this stops cycles

}  // namespace

bool ParseTrackDescriptor(std::string_view bytes, uint64_t base_offset, TrackDescription* out, uint64_t* error_offset,
                          const char** error) {
  namespace td = track_descriptor_field;
  *out = TrackDescription{};
  return ForEachField(bytes, base_offset, error_offset, error, [&](const WireField& f, const WireReader& reader) {
    const bool is_len = f.type == WireType::kLen;
    const bool is_varint = f.type == WireType::kVarint;
    const uint64_t sub_offset = is_len ? reader.OffsetOf(f.payload) : 0;
    switch (f.number) {
      case td::kUuid: if (is_varint) out->uuid = f.value; return true;
      case td::kParentUuid: if (is_varint) out->parent_uuid = f.value; return true;
      case td::kName:
      case td::kStaticName:
      case td::kAtraceName: if (is_len) out->name = std::string(PayloadView(f)); return true;
      case td::kProcess:
        if (!is_len) return true;
        out->is_process = true;
        return ForEachField(PayloadView(f), sub_offset, error_offset, error, [&](const WireField& p, const WireReader&) {
          if (p.number == process_field::kPid && p.type == WireType::kVarint) out->pid = static_cast<int32_t>(p.value);
          if (p.number == process_field::kProcessName && p.type == WireType::kLen) out->process_name = PayloadView(p);
          return true;
        });
      case td::kThread:
        if (!is_len) return true;
        out->is_thread = true;
        return ForEachField(PayloadView(f), sub_offset, error_offset, error, [&](const WireField& t, const WireReader&) {
          if (t.number == thread_field::kPid && t.type == WireType::kVarint) out->pid = static_cast<int32_t>(t.value);
          if (t.number == thread_field::kTid && t.type == WireType::kVarint) out->tid = static_cast<int64_t>(t.value);
          if (t.number == thread_field::kThreadName && t.type == WireType::kLen) out->thread_name = PayloadView(t);
          return true;
        });
      case td::kCounter:
        if (!is_len) return true;
        out->is_counter = true;
        return ForEachField(PayloadView(f), sub_offset, error_offset, error, [&](const WireField& c, const WireReader&) {
          if (c.number == counter_field::kType && c.type == WireType::kVarint) out->counter_type = static_cast<uint32_t>(c.value);
          if (c.number == counter_field::kUnitMultiplier && c.type == WireType::kVarint && c.value != 0)
            out->unit_multiplier = static_cast<int64_t>(c.value);
          if (c.number == counter_field::kIsIncremental && c.type == WireType::kVarint) out->is_incremental = c.value != 0;
          if (c.number == counter_field::kUnitName && c.type == WireType::kLen) out->unit_name = PayloadView(c);
          return true;
        });
      default: return true;  // description, chrome_process/thread, ordering hints, ...
    }
  });
}

void TrackRegistry::Describe(const TrackDescription& d) {
  auto [it, inserted] = descriptions_.try_emplace(d.uuid, d);
  if (d.is_process && !d.process_name.empty()) process_names_[d.pid] = d.process_name;
  if (inserted) return;
  TrackDescription& old = it->second;
  if (d.parent_uuid != 0) old.parent_uuid = d.parent_uuid;
  if (!d.name.empty()) old.name = d.name;
  if (d.is_process) {
    old.is_process = true;
    old.pid = d.pid;
  }
  if (d.is_thread) {
    old.is_thread = true;
    old.pid = d.pid;
    old.tid = d.tid;
  }
  if (!d.process_name.empty()) old.process_name = d.process_name;
  if (!d.thread_name.empty()) old.thread_name = d.thread_name;
  if (d.is_counter) {
    old.is_counter = true;
    old.counter_type = d.counter_type;
    old.unit_multiplier = d.unit_multiplier;
    old.is_incremental = d.is_incremental;
    old.unit_name = d.unit_name;
  }
}

const TrackDescription* TrackRegistry::Find(uint64_t uuid) const {
  auto it = descriptions_.find(uuid);
  return it == descriptions_.end() ? nullptr : &it->second;
}

TrackId TrackRegistry::Resolve(uint64_t uuid, StringId first_event_name) {
  auto it = tracks_.find(uuid);
  if (it != tracks_.end()) return it->second;
  const TrackId track = Create(uuid, first_event_name);
  tracks_.emplace(uuid, track);
  return track;
}

TrackId TrackRegistry::LegacyThread(int64_t pid, int64_t tid, std::string_view thread_name) {
  NameProcess(pid);
  const TrackId track = builder_->ThreadTrack(pid, tid);
  if (!thread_name.empty()) builder_->SetThreadName(pid, tid, thread_name, 0);
  return track;
}

bool TrackRegistry::OwnerPid(const TrackDescription& d, int64_t* pid, const TrackDescription** thread) const {
  const TrackDescription* at = &d;
  for (int hop = 0; at != nullptr && hop < kMaxParentHops; ++hop) {
    if (at->is_thread || at->is_process) {
      *pid = at->pid;
      *thread = at->is_thread ? at : nullptr;
      return true;
    }
    at = at->parent_uuid == 0 ? nullptr : Find(at->parent_uuid);
  }
  return false;
}

void TrackRegistry::NameProcess(int64_t pid) {
  if (!process_named_.try_emplace(pid, true).second) return;
  if (pid == kGlobalPid) {
    if (builder_->ProcessName(pid).is_none()) builder_->SetProcessName(pid, "Global", 0);
    return;
  }
  auto it = process_names_.find(pid);
  if (it != process_names_.end()) builder_->SetProcessName(pid, it->second, 0);
}

TrackId TrackRegistry::Create(uint64_t uuid, StringId first_event_name) {
  static const std::string kAsyncKey = "perfetto track";
  const TrackDescription* d = uuid == 0 ? nullptr : Find(uuid);
  if (d == nullptr) {
    if (uuid != 0) undescribed_.emplace(uuid, true);
    NameProcess(kGlobalPid);
    const StringId name = uuid == 0 ? builder_->Intern("Global") : first_event_name;
    return builder_->AsyncTrack(kGlobalPid, builder_->Intern(kAsyncKey), uuid, name);
  }
  int64_t pid = kGlobalPid;
  const TrackDescription* thread = nullptr;
  if (!OwnerPid(*d, &pid, &thread)) pid = kGlobalPid;
  NameProcess(pid);
  if (d->is_thread) {
    const TrackId track = builder_->ThreadTrack(pid, d->tid);
    const std::string& name = !d->thread_name.empty() ? d->thread_name : d->name;
    if (!name.empty()) builder_->SetThreadName(pid, d->tid, name, 0);
    return track;
  }
  if (d->is_counter) {
    TrackTable::Row row;
    row.kind = TrackKind::kCounter;
    row.process = builder_->Process(pid);
    std::string name = d->name.empty() ? CounterName(*d) : d->name;
    if (d->name.empty() && thread != nullptr) {
      const std::string& thread_name = !thread->thread_name.empty() ? thread->thread_name : thread->name;
      name = (thread_name.empty() ? "thread " + std::to_string(thread->tid) : thread_name) + " " + name;
      row.tid = thread->tid;
    }
    row.name = builder_->Intern(name);
    return builder_->AddTrack(row);
  }
  std::string_view name = d->name;
  if (name.empty() && d->is_process) name = d->process_name;
  const StringId shown = name.empty() ? first_event_name : builder_->Intern(name);
  return builder_->AsyncTrack(pid, builder_->Intern(kAsyncKey), uuid, shown);
}

}  // namespace stepline::loaders::perfetto
