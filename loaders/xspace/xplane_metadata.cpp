// PlaneMetadata: event/stat metadata of one plane, decoded by hand.
#include "loaders/xspace/xplane_metadata.h"

#include "loaders/xspace/xspace_framing.h"

namespace stepline::loaders::xspace {
namespace {

// The map entries are decoded with WireReader, as libprotobuf would parse
// them: fields of an unexpected wire type are skipped as unknown, a repeated
// `value` merges (last scalar wins, stats append), and any malformed byte,
// also inside `value`, its stats or the packed child_id list, fails the entry
// at that byte. Text stays a view into the input.

bool TooLarge(uint64_t size, uint64_t offset, bool is_event, const std::string& path, LoadError* error) {
  if (size <= kMaxProtobufMessageBytes) return false;
  *error = LoadError{LoadErrorCode::kTooLarge, path, offset, LoadError::kNoOffset,
                     std::string(is_event ? "XPlane.event_metadata entry" : "XPlane.stat_metadata entry") + " of " +
                         std::to_string(size) + " bytes exceeds protobuf's 2 GiB message limit (" +
                         std::to_string(kMaxProtobufMessageBytes) + " bytes)"};
  return true;
}

bool Malformed(const WireError& wire, uint64_t offset, bool is_event, const std::string& path, LoadError* error) {
  *error = LoadError{LoadErrorCode::kProtobufInvalid, path, wire.offset, LoadError::kNoOffset,
                     std::string(is_event ? "XPlane.event_metadata entry" : "XPlane.stat_metadata entry") +
                         " at byte " + std::to_string(offset) + ": " + wire.what};
  return false;
}

// XStatMetadata {1 id, 2 name, 3 description} inside StatMetadataEntry {1 key, 2 value}.
bool DecodeStatEntry(const char* data, uint64_t size, uint64_t offset, int64_t* key, std::string_view* name,
                     WireError* error) {
  WireReader entry(data, data + size, offset);
  WireField f;
  while (!entry.done()) {
    if (!entry.Next(&f)) return *error = entry.error(), false;
    if (f.number == 1 && f.type == WireType::kVarint) *key = static_cast<int64_t>(f.value);
    if (f.number != 2 || f.type != WireType::kLen) continue;
    WireReader value(f.payload, f.payload + f.payload_size, entry.OffsetOf(f.payload));
    WireField v;
    while (!value.done()) {
      if (!value.Next(&v)) return *error = value.error(), false;
      if (v.number == 2 && v.type == WireType::kLen) *name = PayloadView(v);
    }
  }
  return true;
}

struct EventEntryFields {
  int64_t key = 0;
  std::string_view name, display_name;
  std::vector<RawStat>* stats = nullptr;  // appended
};

// XEventMetadata {1 id, 2 name, 3 metadata, 4 display_name, 5 stats, 6 child_id}
// inside EventMetadataEntry {1 key, 2 value}. Stats carry the entry's offset,
// which is where their diagnostics point.
bool DecodeEventEntry(const char* data, uint64_t size, uint64_t offset, EventEntryFields* out, WireError* error) {
  WireReader entry(data, data + size, offset);
  WireField f;
  while (!entry.done()) {
    if (!entry.Next(&f)) return *error = entry.error(), false;
    if (f.number == 1 && f.type == WireType::kVarint) out->key = static_cast<int64_t>(f.value);
    if (f.number != 2 || f.type != WireType::kLen) continue;
    WireReader value(f.payload, f.payload + f.payload_size, entry.OffsetOf(f.payload));
    WireField v;
    while (!value.done()) {
      if (!value.Next(&v)) return *error = value.error(), false;
      if (v.type != WireType::kLen) continue;
      if (v.number == 2) out->name = PayloadView(v);
      if (v.number == 4) out->display_name = PayloadView(v);
      if (v.number == 5) {
        RawStat& stat = out->stats->emplace_back();
        if (!DecodeStat(v.payload, v.payload_size, value.OffsetOf(v.payload), &stat, error)) return false;
        stat.offset = offset;
      }
      if (v.number == 6) {  // packed int64 child_id: only checked
        WireReader packed(v.payload, v.payload + v.payload_size, value.OffsetOf(v.payload));
        uint64_t ignored;
        while (!packed.done()) {
          if (!packed.ReadVarint(&ignored)) return *error = packed.error(), false;
        }
      }
    }
  }
  return true;
}

}  // namespace

//-----------------------------------------------------------------------------
// IdIndex
//-----------------------------------------------------------------------------

void PlaneMetadata::IdIndex::Insert(int64_t id, uint32_t index) {
  if (id >= 0 && id < kMaxDense) {
    if (static_cast<size_t>(id) >= dense_.size()) dense_.resize(static_cast<size_t>(id) + 1 + dense_.size() / 2, 0);
    dense_[static_cast<size_t>(id)] = index + 1;  // a repeated key: the last entry wins, as in a map
  } else {
    sparse_[id] = index;
  }
}

uint32_t PlaneMetadata::IdIndex::FindSparse(int64_t id) const {
  auto it = sparse_.find(id);
  return it == sparse_.end() ? kNotFound : it->second;
}

//-----------------------------------------------------------------------------
// Entries
//-----------------------------------------------------------------------------

bool PlaneMetadata::AddStatEntry(const char* data, uint64_t size, uint64_t offset, const std::string& path,
                                 LoadError* error) {
  if (TooLarge(size, offset, /*is_event=*/false, path, error)) return false;
  int64_t key = 0;
  std::string_view name;
  WireError wire;
  if (!DecodeStatEntry(data, size, offset, &key, &name, &wire)) return Malformed(wire, offset, false, path, error);
  StatMeta meta;
  meta.name = InternChecked(name, offset);
  meta.role = ClassifyStatName(name);
  stat_index_.Insert(key, static_cast<uint32_t>(stats_.size()));
  stats_.push_back(meta);
  return true;
}

bool PlaneMetadata::AddEventEntry(const char* data, uint64_t size, uint64_t offset, const std::string& path,
                                  LoadError* error) {
  if (TooLarge(size, offset, /*is_event=*/true, path, error)) return false;
  entry_stats_.clear();
  EventEntryFields md;
  md.stats = &entry_stats_;
  WireError wire;
  if (!DecodeEventEntry(data, size, offset, &md, &wire)) return Malformed(wire, offset, true, path, error);
  EventMeta meta;
  const StringId full = InternChecked(md.name, offset);
  meta.full_name = builder_->trace().str(full);
  if (!md.display_name.empty() && md.display_name != md.name) {
    meta.name = InternChecked(md.display_name, offset);
    meta.long_name = full;
  } else {
    meta.name = full;
  }
  meta.args_begin = static_cast<uint32_t>(metadata_args_.size());
  if (keep_args_ && !meta.long_name.is_none()) {
    metadata_args_.push_back(Arg{builder_->Intern("long_name"), ArgValue::String(meta.long_name)});
  }
  for (const RawStat& stat : entry_stats_) {
    // Facts interned rather than viewed (text_is_stable false), as they
    // always were: the same strings land in the pool in the same order.
    ApplyStat(stat, &metadata_args_, &meta.facts, /*text_is_stable=*/false);
  }
  meta.args_end = static_cast<uint32_t>(metadata_args_.size());
  event_index_.Insert(md.key, static_cast<uint32_t>(events_.size()));
  events_.push_back(meta);
  return true;
}

const PlaneMetadata::StatMeta* PlaneMetadata::FindStat(int64_t id) const {
  const uint32_t index = stat_index_.Find(id);
  return index == IdIndex::kNotFound ? nullptr : &stats_[index];
}

const PlaneMetadata::EventMeta* PlaneMetadata::FindEvent(int64_t id) const {
  const uint32_t index = event_index_.Find(id);
  return index == IdIndex::kNotFound ? nullptr : &events_[index];
}

//-----------------------------------------------------------------------------
// Stats
//-----------------------------------------------------------------------------

std::string_view PlaneMetadata::CheckUtf8(std::string_view text, uint64_t offset) {
  const std::string_view valid = ValidUtf8(text, &utf8_scratch_);
  if (valid.data() != text.data()) {
    builder_->diag().Record(DiagCode::kInvalidUtf8, offset,
                            "\"" + std::string(valid.substr(0, 80)) + "\": invalid UTF-8 replaced by U+FFFD");
  }
  return valid;
}

StringId PlaneMetadata::InternText(const RawStat& stat) {
  if (stat.text.size() > kMaxInternedStatBytes) return builder_->Intern(BytesPlaceholder(stat.text.size()));
  return stat.text_is_utf8 ? builder_->Intern(stat.text, stat.text_hash) : InternChecked(stat.text, stat.offset);
}

bool PlaneMetadata::StatValue(const RawStat& stat, ArgValue* out) {
  switch (stat.kind) {
    case StatValueKind::kNone: return false;
    case StatValueKind::kDouble: *out = ArgValue{ArgType::kDouble, stat.bits}; return true;
    case StatValueKind::kUint: *out = ArgValue::Uint(stat.bits); return true;
    case StatValueKind::kInt: *out = ArgValue::Int(static_cast<int64_t>(stat.bits)); return true;
    case StatValueKind::kString: *out = ArgValue::String(InternText(stat)); return true;
    case StatValueKind::kBytes: *out = ArgValue::String(builder_->Intern(BytesPlaceholder(stat.text.size()))); return true;
    case StatValueKind::kRef: {
      // The value is the *name* of another stat metadata (interned strings).
      const StatMeta* ref = FindStat(static_cast<int64_t>(stat.bits));
      *out = ArgValue::String(ref ? ref->name : StringId::None());
      return true;
    }
    case StatValueKind::kCompressedString:
      if (InflateGzipString(stat.text, kMaxInternedStatBytes, &scratch_)) {
        *out = ArgValue::String(InternChecked(scratch_, stat.offset));
      } else {
        *out = ArgValue::String(builder_->Intern("<" + std::to_string(stat.text.size()) + " bytes gzip>"));
      }
      return true;
  }
  return false;
}

double PlaneMetadata::NumberOf(const RawStat& stat) {
  const ArgValue bits{stat.kind == StatValueKind::kDouble ? ArgType::kDouble : ArgType::kInt, stat.bits};
  return stat.kind == StatValueKind::kDouble ? bits.as_double()
         : stat.kind == StatValueKind::kUint ? static_cast<double>(stat.bits)
                                             : static_cast<double>(bits.as_int());
}

void PlaneMetadata::ApplyStat(const RawStat& stat, std::vector<Arg>* args, StatFacts* facts, bool text_is_stable) {
  const StatMeta* meta = FindStat(stat.metadata_id);
  ArgValue value;
  if (keep_args_ && StatValue(stat, &value)) args->push_back(Arg{meta ? meta->name : StringId::None(), value});
  const bool is_number = stat.kind == StatValueKind::kDouble || stat.kind == StatValueKind::kInt ||
                         stat.kind == StatValueKind::kUint;
  if (is_number && !facts->has_number) {
    facts->has_number = true;
    facts->number = NumberOf(stat);
  }
  const StatRole role = meta ? meta->role : StatRole::kOther;
  if (role == StatRole::kOther) return;
  // The few stats the loader reads: their text must outlive this call, so it
  // is a view into the input (event stats) or into the StringPool.
  std::string_view text;
  if (stat.kind == StatValueKind::kString) {
    text = text_is_stable ? stat.text : builder_->trace().str(InternText(stat));
  } else if (stat.kind == StatValueKind::kRef) {
    const StatMeta* ref = FindStat(static_cast<int64_t>(stat.bits));
    text = ref ? builder_->trace().str(ref->name) : std::string_view();
  }
  const bool is_text = stat.kind == StatValueKind::kString || stat.kind == StatValueKind::kRef;
  const int64_t number = static_cast<int64_t>(stat.bits);  // int64 and uint64 alike
  switch (role) {
    case StatRole::kOther: break;
    case StatRole::kCorrelationId:
      if (stat.kind == StatValueKind::kUint || stat.kind == StatValueKind::kInt) {
        facts->has_correlation_id = true;
        facts->correlation_id = stat.bits;
      }
      break;
    case StatRole::kStepName:
      facts->has_step_name = true;
      facts->step_name = is_text ? text : builder_->trace().str(builder_->Intern(std::to_string(number)));
      break;
    case StatRole::kStepNum:
      if (!is_text && stat.kind != StatValueKind::kDouble) facts->has_step_num = true, facts->step_num = number;
      break;
    case StatRole::kIterNum:
      if (!is_text && stat.kind != StatValueKind::kDouble) facts->has_iter_num = true, facts->iter_num = number;
      break;
    case StatRole::kGraphType: facts->graph_type = text; break;
    case StatRole::kMemcpyDetails: facts->has_memcpy_details = true, facts->memcpy_details = text; break;
    case StatRole::kMemsetDetails: facts->has_memset_details = true; break;
    case StatRole::kMemoryDetails: facts->has_memory_details = true; break;
    case StatRole::kHloCategory: facts->hlo_category = text; break;
  }
}

}  // namespace stepline::loaders::xspace
