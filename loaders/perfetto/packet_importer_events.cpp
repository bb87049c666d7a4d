// PacketImporter, second half: TrackEvents become slices, instants, counter
// samples, args and flows; Finish() turns counted problems into diagnostics.
// Semantics from trace-formats.md 3.4: BEGIN/END nest per track (END closes
// the most recent open slice and need not repeat its name); INSTANT is a
// zero-length event; COUNTER samples its counter track at the packet time.
#include <algorithm>
#include <string>
#include <tuple>

#include "loaders/perfetto/kineto_layout.h"
#include "loaders/perfetto/packet_importer.h"
#include "loaders/perfetto/perfetto_fields.h"

namespace stepline::loaders::perfetto {

StringId PacketImporter::EventName(const SequenceState& seq, uint64_t offset) {
  if (event_.has_name) return builder_->Intern(event_.name);
  if (event_.name_iid == 0) return StringId::None();
  auto it = seq.event_names.find(event_.name_iid);
  if (it != seq.event_names.end()) return it->second;
  missing_name_iid_.Note(offset);
  return StringId::None();
}

// Categories joined with "," (the model holds one category per slice).
StringId PacketImporter::EventCategory(const SequenceState& seq) {
  if (event_.category_iids.size() == 1 && event_.categories.empty()) {
    auto it = seq.categories.find(event_.category_iids[0]);
    return it == seq.categories.end() ? StringId::None() : it->second;
  }
  std::string joined;
  for (uint64_t iid : event_.category_iids) {
    auto it = seq.categories.find(iid);
    if (it == seq.categories.end()) continue;
    if (!joined.empty()) joined += ',';
    joined += builder_->trace().str(it->second);
  }
  for (std::string_view c : event_.categories) {
    if (!joined.empty()) joined += ',';
    joined += c;
  }
  return joined.empty() ? StringId::None() : builder_->Intern(joined);
}

bool PacketImporter::BuildArgs(const PacketRef& p, const SequenceState& seq, ArgSetId* args, LoadError* error) {
  *args = ArgSetId::None();
  if (!options_.keep_args || event_.annotations.empty()) return true;
  args_.clear();
  for (const Payload& a : event_.annotations) {
    uint64_t error_offset = 0;
    const char* what = nullptr;
    if (!AppendAnnotationArgs(a.bytes, a.offset, seq, builder_, &args_, &annotation_stats_, &error_offset, &what)) {
      *error = Malformed(p, error_offset, std::string("DebugAnnotation: ") + what);
      return false;
    }
  }
  *args = builder_->AddArgs(args_);
  return true;
}

// track_uuid, else the sequence default, else the legacy thread of the
// sequence, else the global track (uuid 0).
TrackId PacketImporter::EventTrack(const PacketRef& p, const SequenceState& seq, StringId name, uint64_t* uuid) {
  if (!event_.has_track_uuid && !seq.has_default_track && seq.has_legacy_thread) {
    *uuid = 0;
    return tracks_.LegacyThread(seq.legacy_pid, seq.legacy_tid, {});
  }
  *uuid = event_.has_track_uuid ? event_.track_uuid : seq.has_default_track ? seq.default_track_uuid : 0;
  const TrackId track = tracks_.Resolve(*uuid, name);
  if (tracks_.was_undescribed(*uuid) && undescribed_reported_.try_emplace(*uuid, true).second) {
    builder_->diag().Record(DiagCode::kMissingField, FileOffset(p, p.offset),
                            "no TrackDescriptor for track uuid " + std::to_string(*uuid) +
                                "; its events are on a global track");
  }
  return track;
}

bool PacketImporter::ImportEvent(const PacketRef& p, const Sub& sub, int64_t ts_ns, SequenceState* seq,
                                 LoadError* error) {
  uint64_t error_offset = 0;
  const char* what = nullptr;
  if (!ParseTrackEvent(sub.bytes, sub.offset, &event_, &error_offset, &what)) {
    *error = Malformed(p, error_offset, std::string("TrackEvent: ") + what);
    return false;
  }
  const uint64_t offset = FileOffset(p, sub.offset);
  if (!event_.has_type) {  // legacy_event JSON phases: not modeled, but their counter samples are
    untyped_events_.Note(offset);
    AddExtraCounters(p, ts_ns, seq);
    return true;
  }
  const StringId name = EventName(*seq, offset);
  uint64_t uuid = 0;
  const auto type = static_cast<EventType>(event_.type <= 4 ? event_.type : 0);
  if (type == EventType::kCounter) {
    uuid = event_.has_track_uuid ? event_.track_uuid : seq->has_default_track ? seq->default_track_uuid : 0;
    if (!event_.has_counter_value) {
      counter_value_mismatch_.Note(offset);
    } else {
      AddCounterSample(p, uuid, event_.counter_is_double ? event_.counter_double : static_cast<double>(event_.counter_int),
                       ts_ns, seq);
    }
    AddExtraCounters(p, ts_ns, seq);
    return true;
  }
  if (type == EventType::kUnspecified) {
    unknown_type_.Note(offset);
    return true;
  }
  const TrackId track = EventTrack(p, *seq, name, &uuid);
  ArgSetId args;
  if (!BuildArgs(p, *seq, &args, error)) return false;
  const bool has_flows = !event_.flow_ids.empty() || !event_.terminating_flow_ids.empty();
  const bool has_gpu_links = !event_.gpu_submission_ids.empty() || !event_.gpu_wait_ids.empty();
  SliceId slice;
  switch (type) {
    case EventType::kSliceBegin:
      slice = builder_->BeginSlice(track, ts_ns, name, EventCategory(*seq), args, offset);
      break;
    case EventType::kSliceEnd:
      slice = builder_->EndSlice(track, ts_ns, args, offset);
      break;
    case EventType::kInstant:
      // Flows join slices, so an instant with flows (or GPU correlations) is a
      // zero-length slice (as XSpace does for zero-length events with a
      // correlation id).
      if (has_flows || has_gpu_links) {
        SliceTable::Row row;
        row.track = track;
        row.start_ns = ts_ns;
        row.name = name;
        row.category = EventCategory(*seq);
        row.arg_set = args;
        slice = builder_->AddSlice(row);
      } else {
        InstantTable::Row row;
        row.track = track;
        row.ts_ns = ts_ns;
        row.name = name;
        row.category = EventCategory(*seq);
        row.arg_set = args;
        builder_->AddInstant(row);
      }
      break;
    default: break;
  }
  if (has_flows && !slice.is_none()) NoteFlows(slice, ts_ns, offset);
  if (has_gpu_links && !slice.is_none()) render_stages_.NoteHostCorrelation(slice, event_, offset);
  AddExtraCounters(p, ts_ns, seq);
  return true;
}

void PacketImporter::AddCounterSample(const PacketRef& p, uint64_t uuid, double raw, TimeNs ts_ns,
                                      SequenceState* seq) {
  const TrackDescription* d = tracks_.Find(uuid);
  if (d == nullptr || !d->is_counter) {
    non_counter_track_.Note(FileOffset(p, p.offset));
    return;
  }
  double value = raw * static_cast<double>(d->unit_multiplier);
  if (d->is_incremental) value = seq->counter_totals[uuid] += value;
  builder_->AddCounter(tracks_.Resolve(uuid, StringId::None()), ts_ns, value);
}

// extra_counter_values pair with extra_counter_track_uuids (the event's own
// list, else the sequence default); the same for the double variants.
void PacketImporter::AddExtraCounters(const PacketRef& p, TimeNs ts_ns, SequenceState* seq) {
  const std::vector<uint64_t>& uuids =
      event_.has_extra_counter_uuids ? event_.extra_counter_uuids : seq->default_extra_counter_uuids;
  if (!event_.extra_counter_values.empty()) {
    if (event_.extra_counter_values.size() > uuids.size()) counter_value_mismatch_.Note(FileOffset(p, p.offset));
    for (size_t i = 0; i < event_.extra_counter_values.size() && i < uuids.size(); ++i) {
      AddCounterSample(p, uuids[i], static_cast<double>(static_cast<int64_t>(event_.extra_counter_values[i])), ts_ns,
                       seq);
    }
  }
  const std::vector<uint64_t>& double_uuids =
      event_.has_extra_double_uuids ? event_.extra_double_uuids : seq->default_extra_double_counter_uuids;
  if (!event_.extra_double_values.empty()) {
    if (event_.extra_double_values.size() > double_uuids.size()) counter_value_mismatch_.Note(FileOffset(p, p.offset));
    for (size_t i = 0; i < event_.extra_double_values.size() && i < double_uuids.size(); ++i) {
      AddCounterSample(p, double_uuids[i], event_.extra_double_values[i], ts_ns, seq);
    }
  }
}

void PacketImporter::NoteFlows(SliceId slice, TimeNs ts_ns, uint64_t offset) {
  for (int terminating = 0; terminating < 2; ++terminating) {
    for (uint64_t id : terminating ? event_.terminating_flow_ids : event_.flow_ids) {
      flow_events_.push_back(
          FlowEvent{id, ts_ns, static_cast<uint32_t>(flow_events_.size()), terminating == 1, slice, offset});
    }
  }
}

// Per flow id, in time order: flow_ids draw an arrow from the previous event
// with the id (if any) to this one and keep the id open;
// terminating_flow_ids do the same and close it.
void PacketImporter::LinkFlows() {
  std::sort(flow_events_.begin(), flow_events_.end(), [](const FlowEvent& a, const FlowEvent& b) {
    return std::tie(a.id, a.ts_ns, a.order) < std::tie(b.id, b.ts_ns, b.order);
  });
  uint64_t lone = 0, lone_first = UINT64_MAX;
  const FlowEvent* open = nullptr;
  bool linked = false;
  const auto close_lone = [&] {
    if (open == nullptr || linked) return;
    ++lone;
    lone_first = std::min(lone_first, open->byte_offset);
  };
  for (size_t i = 0; i < flow_events_.size(); ++i) {
    const FlowEvent& e = flow_events_[i];
    if (i > 0 && flow_events_[i - 1].id != e.id) {
      close_lone();
      open = nullptr;
    }
    if (open != nullptr) {
      FlowTable::Pending flow;
      flow.from = FlowEndpoint::OfSlice(open->slice);
      flow.to = FlowEndpoint::OfSlice(e.slice);
      flow.flow_id = e.id;
      flow.byte_offset = e.byte_offset;
      builder_->AddFlow(flow);
      linked = true;
      open = e.terminating ? nullptr : &e;
    } else if (e.terminating) {
      builder_->diag().Record(DiagCode::kUnmatchedFlow, e.byte_offset,
                              "flow " + std::to_string(e.id) + " terminates with no earlier event");
    } else {
      open = &e;
      linked = false;
    }
  }
  close_lone();
  if (lone > 0) {
    builder_->diag().Add(DiagCode::kUnmatchedFlow, lone, lone_first, "flow ids seen on one event only; no arrow drawn");
  }
  flow_events_.clear();
}

//=============================================================================
// [SECTION] Finish: counted problems
//=============================================================================

void PacketImporter::Finish() {
  Diagnostics& d = builder_->diag();
  const auto add = [&](const Counted& c, DiagCode code, const std::string& detail) {
    if (c.count > 0) d.Add(code, c.count, c.first_offset, detail);
  };
  // Kineto's layout first: its launch flows become launch links, not arrows.
  KinetoLayout kineto(builder_);
  kineto.ClassifyTracks();
  if (kineto.gpu_streams() > 0) {
    std::erase_if(flow_events_, [&](const FlowEvent& e) { return kineto.TakeLaunchFlow(e.id, e.slice); });
  }
  LinkFlows();
  render_stages_.Finish();
  add(untyped_events_, DiagCode::kUnsupportedFeature,
      "TrackEvents without a type (legacy_event JSON phases) skipped");
  add(missing_timestamp_, DiagCode::kMissingField, "TrackEvents in packets without a timestamp skipped");
  add(unconvertible_clock_, DiagCode::kUnsupportedFeature,
      "packets on a clock no ClockSnapshot links to the trace clock skipped");
  add(out_of_range_, DiagCode::kOutOfRange, "timestamps beyond int64 ns skipped");
  add(missing_name_iid_, DiagCode::kMissingField, "event name_iid not interned on its sequence; event left unnamed");
  add(needs_state_skipped_, DiagCode::kProducerWarning,
      "packets that need incremental state skipped: their sequence lost it and had no clear yet");
  add(data_loss_, DiagCode::kProducerWarning, "the producer dropped packets before this one (previous_packet_dropped)");
  add(non_counter_track_, DiagCode::kBadFieldType, "counter values for a track that is not a counter track skipped");
  add(counter_value_mismatch_, DiagCode::kMissingField,
      "counter events without a value, or extra counter values without a track uuid; skipped");
  add(unknown_type_, DiagCode::kUnknownPhase, "TrackEvent types other than SLICE_BEGIN/END, INSTANT, COUNTER skipped");
  if (annotation_stats_.unsupported > 0) {
    d.Add(DiagCode::kUnsupportedFeature, annotation_stats_.unsupported, annotation_stats_.unsupported_first_offset,
          "debug annotations with nested_value or proto_value not decoded");
  }
  if (annotation_stats_.missing_iid > 0) {
    d.Add(DiagCode::kMissingField, annotation_stats_.missing_iid, annotation_stats_.missing_iid_first_offset,
          "debug annotation name or string iid not interned on its sequence");
  }
  if (annotation_stats_.too_deep > 0) {
    d.Add(DiagCode::kUnsupportedFeature, annotation_stats_.too_deep, Diagnostics::kNoOffset,
          "debug annotations nested deeper than 32 levels skipped");
  }
}

}  // namespace stepline::loaders::perfetto
