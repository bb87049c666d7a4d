// SequenceState: what one writer sequence (trusted_packet_sequence_id) has
// told the reader so far: interned strings, packet defaults, its own clocks,
// running totals of incremental counters (trace-formats.md 3.2, 3.6). All of
// it is dropped on an incremental-state clear.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "loaders/perfetto/clock_converter.h"
#include "model/ids.h"

namespace stepline::loaders::perfetto {

// InternedGpuRenderStageSpecification: a hardware queue or a render stage.
struct GpuSpecification {
  StringId name, description;
  uint32_t category = 0;  // 0 other, 1 graphics, 2 compute
};

struct SequenceState {
  // Interning tables (InternedData), iid -> string in the trace's pool.
  std::unordered_map<uint64_t, StringId> event_names;
  std::unordered_map<uint64_t, StringId> categories;
  std::unordered_map<uint64_t, StringId> annotation_names;
  std::unordered_map<uint64_t, StringId> annotation_strings;
  std::unordered_map<uint64_t, GpuSpecification> gpu_specs;  // hw queues and render stages

  // TracePacketDefaults.
  uint32_t default_clock_id = 0;  // 0 = the trace clock
  bool has_default_track = false;
  uint64_t default_track_uuid = 0;
  std::vector<uint64_t> default_extra_counter_uuids;
  std::vector<uint64_t> default_extra_double_counter_uuids;

  SequenceClocks clocks;
  std::unordered_map<uint64_t, double> counter_totals;  // incremental counter track uuid -> running value

  // Legacy thread_descriptor packet: the thread of events without a track.
  bool has_legacy_thread = false;
  int64_t legacy_pid = 0, legacy_tid = 0;

  bool seen = false;                   // a packet of this sequence was read
  bool has_incremental_state = false;  // a clear was seen since the start / the last data loss

  // SEQ_INCREMENTAL_STATE_CLEARED: forget everything the sequence interned.
  void ClearIncrementalState() {
    event_names.clear();
    categories.clear();
    annotation_names.clear();
    annotation_strings.clear();
    gpu_specs.clear();
    default_clock_id = 0;
    has_default_track = false;
    default_track_uuid = 0;
    default_extra_counter_uuids.clear();
    default_extra_double_counter_uuids.clear();
    clocks.RestartIncremental();
    counter_totals.clear();
    has_incremental_state = true;
  }
};

}  // namespace stepline::loaders::perfetto
