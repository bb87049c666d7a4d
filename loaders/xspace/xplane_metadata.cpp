// PlaneMetadata: event/stat metadata of one plane, via the generated classes.
#include "loaders/xspace/xplane_metadata.h"

#include <cstring>

#include "loaders/xspace/xspace_framing.h"
#include "xplane.pb.h"

namespace stepline::loaders::xspace {
namespace {

// Where libprotobuf gave up: libprotobuf reports only "failed", so walk the
// entry again with our reader, descending into the fields that are messages
// (entry.value, XEventMetadata.stats, the packed child_id list), and return
// the first malformed byte. `depth` 0 = entry, 1 = metadata, 2 = XStat.
bool FindWireError(const char* data, uint64_t size, uint64_t offset, int depth, bool is_event, WireError* error) {
  WireReader reader(data, data + size, offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = reader.error();
      return true;
    }
    if (f.type != WireType::kLen) continue;
    const uint64_t at = reader.OffsetOf(f.payload);
    const bool nested = (depth == 0 && f.number == 2) || (depth == 1 && is_event && f.number == 5);
    if (nested && FindWireError(f.payload, f.payload_size, at, depth + 1, is_event, error)) return true;
    if (depth == 1 && is_event && f.number == 6) {  // packed int64 child_id
      WireReader packed(f.payload, f.payload + f.payload_size, at);
      uint64_t ignored;
      while (!packed.done()) {
        if (!packed.ReadVarint(&ignored)) {
          *error = packed.error();
          return true;
        }
      }
    }
  }
  return false;
}

bool ParseEntry(google::protobuf::MessageLite* message, const char* data, uint64_t size, uint64_t offset,
                bool is_event, const std::string& path, LoadError* error) {
  const char* what = is_event ? "XPlane.event_metadata entry" : "XPlane.stat_metadata entry";
  if (size > kMaxProtobufMessageBytes) {
    *error = LoadError{LoadErrorCode::kTooLarge, path, offset, LoadError::kNoOffset,
                       std::string(what) + " of " + std::to_string(size) +
                           " bytes exceeds protobuf's 2 GiB message limit (" +
                           std::to_string(kMaxProtobufMessageBytes) + " bytes)"};
    return false;
  }
  if (message->ParseFromArray(data, static_cast<int>(size))) return true;
  WireError wire;
  const bool located = FindWireError(data, size, offset, 0, is_event, &wire);
  *error = LoadError{LoadErrorCode::kProtobufInvalid, path, located ? wire.offset : offset, LoadError::kNoOffset,
                     std::string(what) + " at byte " + std::to_string(offset) + ": " +
                         (located ? wire.what : "rejected by libprotobuf")};
  return false;
}

RawStat FromMessage(const stepline::xspace::XStat& s, uint64_t entry_offset) {
  using V = stepline::xspace::XStat;
  RawStat r;
  r.offset = entry_offset;
  r.metadata_id = s.metadata_id();
  switch (s.value_case()) {
    case V::kDoubleValue: {
      const double d = s.double_value();
      r.kind = StatValueKind::kDouble;
      std::memcpy(&r.bits, &d, sizeof d);
      break;
    }
    case V::kUint64Value: r.kind = StatValueKind::kUint, r.bits = s.uint64_value(); break;
    case V::kInt64Value: r.kind = StatValueKind::kInt, r.bits = static_cast<uint64_t>(s.int64_value()); break;
    case V::kStrValue: r.kind = StatValueKind::kString, r.text = s.str_value(); break;
    case V::kBytesValue: r.kind = StatValueKind::kBytes, r.text = s.bytes_value(); break;
    case V::kRefValue: r.kind = StatValueKind::kRef, r.bits = s.ref_value(); break;
    case V::kCompressedStrValue: r.kind = StatValueKind::kCompressedString, r.text = s.compressed_str_value(); break;
    case V::VALUE_NOT_SET: break;
  }
  return r;
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
  stepline::xspace::StatMetadataEntry entry;
  if (!ParseEntry(&entry, data, size, offset, /*is_event=*/false, path, error)) return false;
  StatMeta meta;
  meta.name = InternChecked(entry.value().name(), offset);
  meta.role = ClassifyStatName(entry.value().name());
  stat_index_.Insert(entry.key(), static_cast<uint32_t>(stats_.size()));
  stats_.push_back(meta);
  return true;
}

bool PlaneMetadata::AddEventEntry(const char* data, uint64_t size, uint64_t offset, const std::string& path,
                                  LoadError* error) {
  stepline::xspace::EventMetadataEntry entry;
  if (!ParseEntry(&entry, data, size, offset, /*is_event=*/true, path, error)) return false;
  const stepline::xspace::XEventMetadata& md = entry.value();
  EventMeta meta;
  const StringId full = InternChecked(md.name(), offset);
  meta.full_name = builder_->trace().str(full);
  if (!md.display_name().empty() && md.display_name() != md.name()) {
    meta.name = InternChecked(md.display_name(), offset);
    meta.long_name = full;
  } else {
    meta.name = full;
  }
  std::vector<Arg> args;
  if (keep_args_ && !meta.long_name.is_none()) {
    args.push_back(Arg{builder_->Intern("long_name"), ArgValue::String(meta.long_name)});
  }
  for (const stepline::xspace::XStat& s : md.stats()) {
    ApplyStat(FromMessage(s, offset), &args, &meta.facts, /*text_is_stable=*/false);  // `entry` dies below
  }
  meta.args_begin = static_cast<uint32_t>(metadata_args_.size());
  metadata_args_.insert(metadata_args_.end(), args.begin(), args.end());
  meta.args_end = static_cast<uint32_t>(metadata_args_.size());
  event_index_.Insert(entry.key(), static_cast<uint32_t>(events_.size()));
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
  return stat.text_is_utf8 ? builder_->Intern(stat.text) : InternChecked(stat.text, stat.offset);
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

void PlaneMetadata::ApplyStat(const RawStat& stat, std::vector<Arg>* args, StatFacts* facts, bool text_is_stable) {
  const StatMeta* meta = FindStat(stat.metadata_id);
  ArgValue value;
  if (keep_args_ && StatValue(stat, &value)) args->push_back(Arg{meta ? meta->name : StringId::None(), value});
  const bool is_number = stat.kind == StatValueKind::kDouble || stat.kind == StatValueKind::kInt ||
                         stat.kind == StatValueKind::kUint;
  if (is_number && !facts->has_number) {
    facts->has_number = true;
    const ArgValue bits{stat.kind == StatValueKind::kDouble ? ArgType::kDouble : ArgType::kInt, stat.bits};
    facts->number = stat.kind == StatValueKind::kDouble ? bits.as_double()
                    : stat.kind == StatValueKind::kUint ? static_cast<double>(stat.bits)
                                                        : static_cast<double>(bits.as_int());
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
  }
}

}  // namespace stepline::loaders::xspace
