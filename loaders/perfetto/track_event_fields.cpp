// TrackEventFields: the TrackEvent decoder (see track_event_fields.h).
#include "loaders/perfetto/track_event_fields.h"

#include <cstring>

#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {

// A repeated varint field, one value (unpacked) or a packed run.
bool AppendVarints(const WireField& f, const WireReader& outer, std::vector<uint64_t>* out, WireError* error) {
  if (f.type == WireType::kVarint) {
    out->push_back(f.value);
    return true;
  }
  if (f.type != WireType::kLen) return true;  // wrong wire type: ignored like an unknown field
  WireReader packed(f.payload, f.payload + f.payload_size, outer.OffsetOf(f.payload));
  while (!packed.done()) {
    uint64_t v;
    if (!packed.ReadVarint(&v)) {
      *error = packed.error();
      return false;
    }
    out->push_back(v);
  }
  return true;
}

// A repeated fixed64 field (flow ids, doubles), unpacked or packed.
bool AppendFixed64(const WireField& f, const WireReader& outer, std::vector<uint64_t>* out, WireError* error) {
  if (f.type == WireType::kFixed64) {
    out->push_back(f.value);
    return true;
  }
  if (f.type != WireType::kLen) return true;
  if (f.payload_size % 8 != 0) {
    *error = WireError{outer.OffsetOf(f.payload), "packed fixed64 run is not a multiple of 8 bytes"};
    return false;
  }
  for (uint64_t i = 0; i < f.payload_size; i += 8) {
    uint64_t v;
    std::memcpy(&v, f.payload + i, 8);  // little-endian hosts only, as WireReader
    out->push_back(v);
  }
  return true;
}

// GpuCorrelation: two repeated uint64 lists of render stage event ids.
bool AppendGpuCorrelation(const WireField& f, const WireReader& outer, TrackEventFields* out, WireError* error) {
  if (f.type != WireType::kLen) return true;
  WireReader reader(f.payload, f.payload + f.payload_size, outer.OffsetOf(f.payload));
  WireField c;
  while (!reader.done()) {
    if (!reader.Next(&c)) {
      *error = reader.error();
      return false;
    }
    std::vector<uint64_t>* list = c.number == gpu_correlation_field::kSubmissionEventIds ? &out->gpu_submission_ids
                                  : c.number == gpu_correlation_field::kWaitEventIds     ? &out->gpu_wait_ids
                                                                                         : nullptr;
    if (list != nullptr && !AppendVarints(c, reader, list, error)) return false;
  }
  return true;
}

double AsDouble(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

void TrackEventFields::Clear() {
  has_type = has_track_uuid = has_name = has_counter_value = counter_is_double = false;
  has_extra_counter_uuids = has_extra_double_uuids = false;
  type = track_uuid = name_iid = 0;
  name = {};
  counter_int = 0;
  counter_double = 0;
  category_iids.clear();
  categories.clear();
  extra_counter_uuids.clear();
  extra_counter_values.clear();
  extra_double_uuids.clear();
  extra_double_values.clear();
  annotations.clear();
  flow_ids.clear();
  terminating_flow_ids.clear();
  gpu_submission_ids.clear();
  gpu_wait_ids.clear();
}

bool ParseTrackEvent(std::string_view bytes, uint64_t base_offset, TrackEventFields* out, uint64_t* error_offset,
                     const char** error) {
  namespace te = track_event_field;
  out->Clear();
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), base_offset);
  WireField f;
  WireError sub_error;
  std::vector<uint64_t> doubles;
  bool ok = true;
  while (ok && !reader.done()) {
    if (!reader.Next(&f)) {
      sub_error = reader.error();
      ok = false;
      break;
    }
    const bool is_varint = f.type == WireType::kVarint;
    const bool is_len = f.type == WireType::kLen;
    switch (f.number) {
      case te::kType:
        if (!is_varint) break;
        out->has_type = true;
        out->type = f.value;
        break;
      case te::kTrackUuid:
        if (!is_varint) break;
        out->has_track_uuid = true;
        out->track_uuid = f.value;
        break;
      case te::kName:  // oneof with name_iid: the last one wins
        if (!is_len) break;
        out->has_name = true;
        out->name = PayloadView(f);
        out->name_iid = 0;
        break;
      case te::kNameIid:
        if (!is_varint) break;
        out->has_name = false;
        out->name_iid = f.value;
        break;
      case te::kCategories: if (is_len) out->categories.push_back(PayloadView(f)); break;
      case te::kCategoryIids: ok = AppendVarints(f, reader, &out->category_iids, &sub_error); break;
      case te::kCounterValue:  // oneof with double_counter_value
        if (!is_varint) break;
        out->has_counter_value = true;
        out->counter_is_double = false;
        out->counter_int = static_cast<int64_t>(f.value);
        break;
      case te::kDoubleCounterValue:
        if (f.type != WireType::kFixed64) break;
        out->has_counter_value = true;
        out->counter_is_double = true;
        out->counter_double = AsDouble(f.value);
        break;
      case te::kExtraCounterTrackUuids:
        out->has_extra_counter_uuids = true;
        ok = AppendVarints(f, reader, &out->extra_counter_uuids, &sub_error);
        break;
      case te::kExtraCounterValues: ok = AppendVarints(f, reader, &out->extra_counter_values, &sub_error); break;
      case te::kExtraDoubleCounterTrackUuids:
        out->has_extra_double_uuids = true;
        ok = AppendVarints(f, reader, &out->extra_double_uuids, &sub_error);
        break;
      case te::kExtraDoubleCounterValues:
        doubles.clear();
        ok = AppendFixed64(f, reader, &doubles, &sub_error);
        for (uint64_t bits : doubles) out->extra_double_values.push_back(AsDouble(bits));
        break;
      case te::kDebugAnnotations:
        if (is_len) out->annotations.push_back(Payload{PayloadView(f), reader.OffsetOf(f.payload)});
        break;
      case te::kGpuCorrelation: ok = AppendGpuCorrelation(f, reader, out, &sub_error); break;
      case te::kFlowIds: ok = AppendFixed64(f, reader, &out->flow_ids, &sub_error); break;
      case te::kFlowIdsOld: ok = AppendVarints(f, reader, &out->flow_ids, &sub_error); break;
      case te::kTerminatingFlowIds: ok = AppendFixed64(f, reader, &out->terminating_flow_ids, &sub_error); break;
      case te::kTerminatingFlowIdsOld: ok = AppendVarints(f, reader, &out->terminating_flow_ids, &sub_error); break;
      default: break;  // legacy timing, log messages, source locations, ...: skipped
    }
  }
  if (!ok) {
    *error_offset = sub_error.offset;
    *error = sub_error.what;
  }
  return ok;
}

}  // namespace stepline::loaders::perfetto
