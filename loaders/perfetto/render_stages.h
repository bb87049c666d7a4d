// RenderStageImporter: Perfetto's GPU timeline. A GpuRenderStageEvent
// (TracePacket field 53) is one piece of GPU work with its own event id: a
// graphics render stage from a GPU driver, or a kernel or copy from a
// compute producer (CUDA, HIP). Host TrackEvents name the GPU work they
// submitted or waited for with the GpuCorrelation extension (TrackEvent
// field 3000), listing those event ids: the later form of correlation, with
// no flow ids on the GPU side.
//
// Mapping:
//   event           a GPU slice at the packet's time lasting `duration` ns
//                   (none: a point), on the track of its hardware queue
//   hw queue        a GPU stream of device gpu_id (0 when unset), in a process
//                   "GPU N" of its own; named by the queue's interned
//                   specification (hw_queue_iid, per sequence), or the
//                   deprecated specifications list (hw_queue_id), else
//                   "GPU queue N"; one track per (device, queue name)
//   name            `name`, else `name_iid` (the sequence's event names),
//                   else the stage's specification name (stage_iid or the
//                   deprecated stage_id), else "render stage N"
//   category        the stage's name; GpuKind from it as a Kineto category
//                   ("Kernel", "Memcpy", ...), else from the event's name
//                   (copies and memsets by name, every other stage is GPU
//                   work: a kernel, or a collective by its name)
//   args            event_id, submission_id, context, the stage's
//                   description and every extra_data entry (when args are kept)
//   submission ids  a launch link from the host slice to each GPU slice it
//                   submitted (flow id = the GPU event id)
//   wait ids        an arrow from each GPU slice to the host slice that waited
// Events without event_id are skipped and counted (Perfetto's trace
// processor skips them too); ids naming no event are counted.
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loaders/perfetto/sequence_state.h"
#include "loaders/perfetto/track_event_fields.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::perfetto {

class RenderStageImporter {
 public:
  RenderStageImporter(TraceBuilder* builder, bool keep_args) : builder_(builder), keep_args_(keep_args) {}

  // One InternedData.gpu_specifications entry into `seq`; false on malformed
  // bytes (`error_offset`, `what` set).
  bool ApplySpecification(std::string_view bytes, uint64_t offset, SequenceState* seq, uint64_t* error_offset,
                          const char** what);
  // One GpuRenderStageEvent payload at `offset` (in the walked buffer;
  // `file_offset` is what diagnostics name) that starts at `ts_ns`.
  bool Import(std::string_view bytes, uint64_t offset, uint64_t file_offset, TimeNs ts_ns, const SequenceState& seq,
              uint64_t* error_offset, const char** what);
  // The GpuCorrelation of the TrackEvent that made `host`.
  void NoteHostCorrelation(SliceId host, const TrackEventFields& event, uint64_t file_offset);
  // Links correlations to the GPU slices; counted problems become diagnostics.
  void Finish();

  size_t gpu_events() const { return gpu_by_event_id_.size(); }

 private:
  struct Correlation {
    uint64_t event_id;
    SliceId host;
    bool wait;
    uint64_t file_offset;
  };
  struct Counted {
    uint64_t count = 0;
    uint64_t first_offset = UINT64_MAX;
    void Note(uint64_t offset) {
      if (count++ == 0) first_offset = offset;
    }
  };
  TrackId QueueTrack(int32_t gpu, StringId queue_name);
  StringId SpecName(const SequenceState& seq, bool has_iid, uint64_t iid, bool has_legacy, uint64_t legacy_id,
                    const std::vector<StringId>& legacy, std::string_view fallback, uint64_t offset,
                    const GpuSpecification** spec);
  bool ReadLegacySpecifications(std::string_view bytes, uint64_t offset, uint64_t* error_offset, const char** what);

  TraceBuilder* builder_;
  bool keep_args_;
  std::unordered_map<uint64_t, SliceId> gpu_by_event_id_;
  std::unordered_map<uint64_t, TrackId> queue_tracks_;  // (device << 32 | queue name) -> track
  std::unordered_map<int32_t, int64_t> queues_per_device_;
  std::vector<Correlation> correlations_;
  // The deprecated Specifications message: queue and stage names by position,
  // for the whole trace (as Perfetto's trace processor keeps them).
  std::vector<StringId> legacy_queues_, legacy_stages_;
  std::vector<Arg> args_;  // scratch
  Counted missing_event_id_, duplicate_event_id_, unknown_spec_, unmatched_ids_;
};

}  // namespace stepline::loaders::perfetto
