// TrackEventFields: one TrackEvent decoded into plain fields (views into the
// input), so the importer can resolve tracks, names and values in the order
// the semantics need rather than the order the writer emitted them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "loaders/perfetto/perfetto_fields.h"

namespace stepline::loaders::perfetto {

struct Payload {
  std::string_view bytes;
  uint64_t offset = 0;  // of bytes[0], in the walked buffer
};

struct TrackEventFields {
  bool has_type = false;
  uint64_t type = 0;  // EventType when 1..4
  bool has_track_uuid = false;
  uint64_t track_uuid = 0;
  bool has_name = false;
  std::string_view name;
  uint64_t name_iid = 0;  // 0 = not interned
  std::vector<uint64_t> category_iids;
  std::vector<std::string_view> categories;
  bool has_counter_value = false;
  bool counter_is_double = false;
  int64_t counter_int = 0;
  double counter_double = 0;
  bool has_extra_counter_uuids = false;  // else TrackEventDefaults' list applies
  std::vector<uint64_t> extra_counter_uuids;
  std::vector<uint64_t> extra_counter_values;  // int64 bits
  bool has_extra_double_uuids = false;
  std::vector<uint64_t> extra_double_uuids;
  std::vector<double> extra_double_values;
  std::vector<Payload> annotations;  // DebugAnnotation payloads
  std::vector<uint64_t> flow_ids;
  std::vector<uint64_t> terminating_flow_ids;
  // The GpuCorrelation extension: GpuRenderStageEvent ids this event
  // submitted (a kernel launch) or waited for (a synchronize).
  std::vector<uint64_t> gpu_submission_ids;
  std::vector<uint64_t> gpu_wait_ids;

  void Clear();  // keeps the vectors' capacity: one instance is reused per event
};

// Decodes a TrackEvent payload that starts at `base_offset`. Repeated scalar
// fields are read packed or unpacked. False on malformed bytes, with
// `error_offset` and `error` (static text) set.
bool ParseTrackEvent(std::string_view bytes, uint64_t base_offset, TrackEventFields* out, uint64_t* error_offset,
                     const char** error);

}  // namespace stepline::loaders::perfetto
