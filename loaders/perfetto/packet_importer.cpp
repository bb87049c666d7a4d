// PacketImporter: the two passes over TracePackets (see packet_importer.h).
//
// [SECTION] Pass 1: snapshots, descriptors, compressed blobs
// [SECTION] Pass 2: packet fields and sequence state
// [SECTION] Pass 2: timestamps
// (TrackEvents and Finish are in packet_importer_events.cpp.)
#include "loaders/perfetto/packet_importer.h"

#include <string>

#include "loaders/perfetto/compressed_packets.h"
#include "loaders/perfetto/packet_framing.h"
#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {

constexpr int kMaxBlobDepth = 4;  // compressed packets inside compressed packets: never seen, bounded anyway

}  // namespace

PacketImporter::PacketImporter(TraceBuilder* builder, std::string path, const LoadOptions& options)
    : builder_(builder), path_(std::move(path)), options_(options), tracks_(builder), render_stages_(builder, options.keep_args) {}

LoadError PacketImporter::Malformed(const PacketRef& p, uint64_t offset, const std::string& what) const {
  LoadError e{LoadErrorCode::kProtobufInvalid, path_, FileOffset(p, offset), LoadError::kNoOffset, what};
  if (p.blob_offset != PacketRef::kTopLevel) {
    e.message = "in the compressed packets at byte " + std::to_string(p.blob_offset) + ", inflated byte " +
                std::to_string(offset) + ": " + what;
  }
  return e;
}

//=============================================================================
// [SECTION] Pass 1: snapshots, descriptors, compressed blobs
//=============================================================================

bool PacketImporter::Prescan(const PacketRef& p, std::vector<PacketRef>* out, LoadError* error) {
  WireReader reader(p.bytes.data(), p.bytes.data() + p.bytes.size(), p.offset);
  WireField f;
  bool only_blobs = true;  // a packet that is just a compressed container is replaced by its content
  bool has_blob = false;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = Malformed(p, reader.error().offset, std::string("TracePacket field: ") + reader.error().what);
      return false;
    }
    const bool is_len = f.type == WireType::kLen;
    const uint64_t payload_offset = is_len ? reader.OffsetOf(f.payload) : 0;
    const char* what = nullptr;
    uint64_t error_offset = 0;
    if (f.number == packet_field::kClockSnapshot && is_len) {
      if (!ParseClockSnapshot(PayloadView(f), payload_offset, &snapshot_, &error_offset, &what)) {
        *error = Malformed(p, error_offset, std::string("ClockSnapshot: ") + what);
        return false;
      }
      clocks_.AddSnapshot(snapshot_);
      if (snapshot_.primary_trace_clock != 0) clocks_.set_trace_clock(snapshot_.primary_trace_clock);
    } else if (f.number == packet_field::kTrackDescriptor && is_len) {
      TrackDescription d;
      if (!ParseTrackDescriptor(PayloadView(f), payload_offset, &d, &error_offset, &what)) {
        *error = Malformed(p, error_offset, std::string("TrackDescriptor: ") + what);
        return false;
      }
      tracks_.Describe(d);
    } else if ((f.number == packet_field::kCompressedPackets || f.number == packet_field::kZstdCompressedPackets) &&
               is_len) {
      has_blob = true;
      if (!PrescanBlob(p, PayloadView(f), payload_offset, f.number == packet_field::kZstdCompressedPackets, out,
                       error, 0)) {
        return false;
      }
      continue;
    }
    if (f.number != packet_field::kSequenceId) only_blobs = false;
  }
  if (!(has_blob && only_blobs)) out->push_back(p);
  return true;
}

bool PacketImporter::PrescanBlob(const PacketRef& p, std::string_view compressed, uint64_t offset, bool zstd,
                                 std::vector<PacketRef>* out, LoadError* error, int depth) {
  const uint64_t blob_offset = FileOffset(p, offset);
  std::string inflated;
  std::string why;
  if (depth >= kMaxBlobDepth ||
      !InflatePackets(compressed, zstd ? PacketCompression::kZstd : PacketCompression::kDeflate, &inflated, &why)) {
    if (depth >= kMaxBlobDepth) why = "compressed packets nested too deeply";
    *error = LoadError{LoadErrorCode::kDecompressFailed, path_, blob_offset, LoadError::kNoOffset,
                       std::string(zstd ? "zstd_compressed_packets" : "compressed_packets") + " at byte " +
                           std::to_string(blob_offset) + ": " + why};
    return false;
  }
  blobs_.push_back(std::move(inflated));
  const std::string where = "compressed packets at byte " + std::to_string(blob_offset);
  auto framing = WalkPackets(blobs_.back(), 0, path_, where, /*tolerate_truncation=*/false);
  if (!framing.ok()) {
    *error = framing.error();
    error->byte_offset = blob_offset;
    return false;
  }
  for (const PacketSpan& span : framing->packets) {
    const PacketRef inner{span.bytes, span.offset, blob_offset};
    // Nested blobs are rare enough to rescan through the general path.
    if (!Prescan(inner, out, error)) return false;
  }
  return true;
}

//=============================================================================
// [SECTION] Pass 2: packet fields and sequence state
//=============================================================================

bool PacketImporter::ParsePacket(const PacketRef& p, PacketFields* out, LoadError* error) {
  namespace pf = packet_field;
  *out = PacketFields{};
  WireReader reader(p.bytes.data(), p.bytes.data() + p.bytes.size(), p.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = Malformed(p, reader.error().offset, std::string("TracePacket field: ") + reader.error().what);
      return false;
    }
    if (f.type == WireType::kVarint) {
      switch (f.number) {
        case pf::kTimestamp: out->has_timestamp = true; out->timestamp = f.value; break;
        case pf::kTimestampClockId: out->has_clock_id = true; out->clock_id = static_cast<uint32_t>(f.value); break;
        case pf::kSequenceId: out->sequence_id = static_cast<uint32_t>(f.value); break;
        case pf::kSequenceFlags: out->flags = static_cast<uint32_t>(f.value); break;
        case pf::kIncrementalStateCleared: out->state_cleared = f.value != 0; break;
        case pf::kPreviousPacketDropped: out->previous_dropped = f.value != 0; break;
        case pf::kFirstPacketOnSequence: out->first_on_sequence = f.value != 0; break;
        default: break;
      }
      continue;
    }
    if (f.type != WireType::kLen) continue;
    const Sub sub{PayloadView(f), reader.OffsetOf(f.payload), true};
    switch (f.number) {
      case pf::kTrackEvent: out->track_event = sub; break;
      case pf::kInternedData: out->interned_data = sub; break;
      case pf::kTracePacketDefaults: out->defaults = sub; break;
      case pf::kClockSnapshot: out->clock_snapshot = sub; break;
      case pf::kThreadDescriptor: out->thread_descriptor = sub; break;
      case pf::kProcessDescriptor: out->process_descriptor = sub; break;
      case pf::kGpuRenderStageEvent: out->render_stage = sub; break;
      default: break;  // descriptors and blobs were handled by Prescan; other data is not modeled
    }
  }
  return true;
}

bool PacketImporter::Import(const PacketRef& p, LoadError* error) {
  PacketFields pk;
  if (!ParsePacket(p, &pk, error)) return false;
  if (last_sequence_ == nullptr || last_sequence_id_ != pk.sequence_id) {
    last_sequence_ = &sequences_[pk.sequence_id];  // node-based map: the pointer stays valid
    last_sequence_id_ = pk.sequence_id;
  }
  SequenceState& seq = *last_sequence_;
  // The first packet of every sequence carries previous_packet_dropped (the
  // service cannot tell a new writer from a lossy one); later ones mean loss.
  if (pk.previous_dropped && seq.seen && !pk.first_on_sequence) {
    seq.has_incremental_state = false;
    data_loss_.Note(FileOffset(p, p.offset));
  }
  seq.seen = true;
  // Order matters within one packet: clear, then the new clocks and defaults.
  if ((pk.flags & kSeqIncrementalStateCleared) || pk.state_cleared) seq.ClearIncrementalState();
  if (pk.clock_snapshot.present) {
    uint64_t error_offset = 0;
    const char* what = nullptr;
    if (!ParseClockSnapshot(pk.clock_snapshot.bytes, pk.clock_snapshot.offset, &snapshot_, &error_offset, &what)) {
      *error = Malformed(p, error_offset, std::string("ClockSnapshot: ") + what);
      return false;
    }
    seq.clocks.Reset(snapshot_, clocks_.trace_clock());
  }
  if (pk.defaults.present && !ApplyDefaults(p, pk.defaults, &seq, error)) return false;
  if ((pk.flags & kSeqNeedsIncrementalState) && !seq.has_incremental_state) {
    needs_state_skipped_.Note(FileOffset(p, p.offset));
    return true;
  }
  int64_t ts_ns = 0;
  // Every timestamped packet advances an incremental clock, events or not.
  const bool has_ts = pk.has_timestamp && ResolveTimestamp(p, pk, &seq, &ts_ns);
  if (pk.interned_data.present && !ApplyInterned(p, pk.interned_data, &seq, error)) return false;
  if (!ApplyLegacyDescriptors(p, pk, &seq, error)) return false;
  if (pk.render_stage.present) {
    if (!pk.has_timestamp) {
      missing_timestamp_.Note(FileOffset(p, pk.render_stage.offset));
    } else if (has_ts) {
      uint64_t error_offset = 0;
      const char* what = nullptr;
      if (!render_stages_.Import(pk.render_stage.bytes, pk.render_stage.offset, FileOffset(p, pk.render_stage.offset),
                                 ts_ns, seq, &error_offset, &what)) {
        *error = Malformed(p, error_offset, std::string("GpuRenderStageEvent: ") + what);
        return false;
      }
    }
  }
  if (pk.track_event.present) {
    if (!pk.has_timestamp) {
      missing_timestamp_.Note(FileOffset(p, pk.track_event.offset));
      return true;
    }
    if (!has_ts) return true;  // counted by ResolveTimestamp
    return ImportEvent(p, pk.track_event, ts_ns, &seq, error);
  }
  return true;
}

bool PacketImporter::ApplyDefaults(const PacketRef& p, const Sub& defaults, SequenceState* seq, LoadError* error) {
  namespace df = defaults_field;
  WireReader reader(defaults.bytes.data(), defaults.bytes.data() + defaults.bytes.size(), defaults.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = Malformed(p, reader.error().offset, std::string("TracePacketDefaults: ") + reader.error().what);
      return false;
    }
    if (f.number == df::kTimestampClockId && f.type == WireType::kVarint) {
      seq->default_clock_id = static_cast<uint32_t>(f.value);
    }
    if (f.number != df::kTrackEventDefaults || f.type != WireType::kLen) continue;
    seq->default_extra_counter_uuids.clear();
    seq->default_extra_double_counter_uuids.clear();
    WireReader te(f.payload, f.payload + f.payload_size, reader.OffsetOf(f.payload));
    WireField d;
    while (!te.done()) {
      if (!te.Next(&d)) {
        *error = Malformed(p, te.error().offset, std::string("TrackEventDefaults: ") + te.error().what);
        return false;
      }
      std::vector<uint64_t>* list = d.number == df::kExtraCounterTrackUuids         ? &seq->default_extra_counter_uuids
                                    : d.number == df::kExtraDoubleCounterTrackUuids ? &seq->default_extra_double_counter_uuids
                                                                                    : nullptr;
      if (d.number == df::kTrackUuid && d.type == WireType::kVarint) {
        seq->has_default_track = true;
        seq->default_track_uuid = d.value;
      } else if (list != nullptr && d.type == WireType::kVarint) {
        list->push_back(d.value);
      } else if (list != nullptr && d.type == WireType::kLen) {  // packed
        WireReader packed(d.payload, d.payload + d.payload_size, te.OffsetOf(d.payload));
        uint64_t v;
        while (!packed.done()) {
          if (!packed.ReadVarint(&v)) {
            *error = Malformed(p, packed.error().offset, std::string("TrackEventDefaults: ") + packed.error().what);
            return false;
          }
          list->push_back(v);
        }
      }
    }
  }
  return true;
}

bool PacketImporter::ApplyInterned(const PacketRef& p, const Sub& interned, SequenceState* seq, LoadError* error) {
  namespace in = interned_field;
  WireReader reader(interned.bytes.data(), interned.bytes.data() + interned.bytes.size(), interned.offset);
  WireField f;
  while (!reader.done()) {
    if (!reader.Next(&f)) {
      *error = Malformed(p, reader.error().offset, std::string("InternedData: ") + reader.error().what);
      return false;
    }
    if (f.type != WireType::kLen) continue;
    if (f.number == in::kGpuSpecifications) {
      uint64_t error_offset = 0;
      const char* what = nullptr;
      if (!render_stages_.ApplySpecification(PayloadView(f), reader.OffsetOf(f.payload), seq, &error_offset, &what)) {
        *error = Malformed(p, error_offset, std::string("InternedGpuRenderStageSpecification: ") + what);
        return false;
      }
      continue;
    }
    std::unordered_map<uint64_t, StringId>* table = nullptr;
    switch (f.number) {
      case in::kEventCategories: table = &seq->categories; break;
      case in::kEventNames: table = &seq->event_names; break;
      case in::kDebugAnnotationNames: table = &seq->annotation_names; break;
      case in::kDebugAnnotationStringValues: table = &seq->annotation_strings; break;
      default: continue;  // source locations, mappings, ...: not modeled
    }
    uint64_t iid = 0;
    std::string_view name;
    WireReader entry(f.payload, f.payload + f.payload_size, reader.OffsetOf(f.payload));
    WireField e;
    while (!entry.done()) {
      if (!entry.Next(&e)) {
        *error = Malformed(p, entry.error().offset, std::string("InternedData entry: ") + entry.error().what);
        return false;
      }
      if (e.number == in::kEntryIid && e.type == WireType::kVarint) iid = e.value;
      if (e.number == in::kEntryName && e.type == WireType::kLen) name = PayloadView(e);
    }
    if (iid != 0) (*table)[iid] = builder_->Intern(name);  // iid 0 means "not set"
  }
  return true;
}

bool PacketImporter::ApplyLegacyDescriptors(const PacketRef& p, const PacketFields& pk, SequenceState* seq,
                                            LoadError* error) {
  for (const Sub* sub : {&pk.process_descriptor, &pk.thread_descriptor}) {
    if (!sub->present) continue;
    const bool is_thread = sub == &pk.thread_descriptor;
    int64_t pid = 0, tid = 0;
    std::string_view name;
    WireReader reader(sub->bytes.data(), sub->bytes.data() + sub->bytes.size(), sub->offset);
    WireField f;
    while (!reader.done()) {
      if (!reader.Next(&f)) {
        *error = Malformed(p, reader.error().offset,
                           std::string(is_thread ? "ThreadDescriptor: " : "ProcessDescriptor: ") + reader.error().what);
        return false;
      }
      // Same numbers in both messages for pid (1); tid 2, names 5 / 6.
      if (f.number == 1 && f.type == WireType::kVarint) pid = static_cast<int32_t>(f.value);
      if (is_thread && f.number == thread_field::kTid && f.type == WireType::kVarint) tid = static_cast<int64_t>(f.value);
      const uint32_t name_field = is_thread ? thread_field::kThreadName : process_field::kProcessName;
      if (f.number == name_field && f.type == WireType::kLen) name = PayloadView(f);
    }
    if (is_thread) {
      seq->has_legacy_thread = true;
      seq->legacy_pid = pid;
      seq->legacy_tid = tid;
      tracks_.LegacyThread(pid, tid, name);
    } else if (!name.empty()) {
      builder_->SetProcessName(pid, name, FileOffset(p, sub->offset));
    }
  }
  return true;
}

//=============================================================================
// [SECTION] Pass 2: timestamps
//=============================================================================

bool PacketImporter::ResolveTimestamp(const PacketRef& p, const PacketFields& pk, SequenceState* seq, int64_t* ts_ns) {
  const uint32_t clock = pk.has_clock_id ? pk.clock_id : seq->default_clock_id;
  uint32_t global_clock = clock == 0 ? clocks_.trace_clock() : clock;
  int64_t global_ns = static_cast<int64_t>(pk.timestamp);
  if (IsSequenceClock(clock)) {
    if (!seq->clocks.ToGlobal(clock, pk.timestamp, &global_clock, &global_ns)) {
      unconvertible_clock_.Note(FileOffset(p, p.offset));
      return false;
    }
  } else if (pk.timestamp > static_cast<uint64_t>(INT64_MAX)) {
    out_of_range_.Note(FileOffset(p, p.offset));
    return false;
  }
  if (!clocks_.ToTraceTime(global_clock, global_ns, ts_ns)) {
    unconvertible_clock_.Note(FileOffset(p, p.offset));
    return false;
  }
  return true;
}

}  // namespace stepline::loaders::perfetto
