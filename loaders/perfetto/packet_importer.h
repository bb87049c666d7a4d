// PacketImporter: TracePackets in, TraceBuilder calls out. Two passes over
// the packets in file order:
//   Prescan  clock snapshots (global clock links, the trace clock), track
//            descriptors, and compressed blobs (inflated once; their packets
//            take the blob's place in the list the second pass walks);
//   Import   per-sequence state (clears, defaults, interning, sequence
//            clocks) and the TrackEvents: slices, instants, counters, args,
//            flows; GPU render stage events (render_stages.h).
// Collecting descriptors and snapshots first makes the result independent of
// where the producer put them (a track may be described after its first use).
// Events are imported in file order: B/E matching per track relies on each
// track's events being in time order in the file, as writers emit them.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "loaders/load.h"
#include "loaders/load_error.h"
#include "loaders/perfetto/annotation_args.h"
#include "loaders/perfetto/clock_converter.h"
#include "loaders/perfetto/render_stages.h"
#include "loaders/perfetto/sequence_state.h"
#include "loaders/perfetto/track_event_fields.h"
#include "loaders/perfetto/track_registry.h"
#include "loaders/trace_builder.h"

namespace stepline::loaders::perfetto {

// One packet to import. Offsets of a top-level packet are file offsets; a
// packet from a compressed blob has offsets into the inflated blob and
// `blob_offset` names where the blob is in the file.
struct PacketRef {
  static constexpr uint64_t kTopLevel = UINT64_MAX;
  std::string_view bytes;
  uint64_t offset = 0;
  uint64_t blob_offset = kTopLevel;
};

class PacketImporter {
 public:
  PacketImporter(TraceBuilder* builder, std::string path, const LoadOptions& options);

  // Pass 1. Appends `packet`, or the packets of its compressed blobs, to `out`.
  bool Prescan(const PacketRef& packet, std::vector<PacketRef>* out, LoadError* error);
  // Pass 2, over what Prescan produced, in order.
  bool Import(const PacketRef& packet, LoadError* error);
  // Counted problems become diagnostics.
  void Finish();

 private:
  struct Sub {  // a length-delimited field of the packet
    std::string_view bytes;
    uint64_t offset = 0;
    bool present = false;
  };
  struct PacketFields {
    bool has_timestamp = false, has_clock_id = false;
    uint64_t timestamp = 0;
    uint32_t clock_id = 0;
    uint32_t sequence_id = 0;
    uint32_t flags = 0;
    bool state_cleared = false, previous_dropped = false, first_on_sequence = false;
    Sub track_event, interned_data, defaults, clock_snapshot, thread_descriptor, process_descriptor, render_stage;
  };
  struct Counted {  // a problem reported once, with its count
    uint64_t count = 0;
    uint64_t first_offset = UINT64_MAX;
    void Note(uint64_t offset) {
      if (count++ == 0) first_offset = offset;
    }
  };
  // One event's part in a flow. Flows are linked in time order at Finish():
  // the events of one flow come from different sequences, whose chunks the
  // file does not hold in time order.
  struct FlowEvent {
    uint64_t id;
    TimeNs ts_ns;
    uint32_t order;  // import order, for events at the same time
    bool terminating;
    SliceId slice;
    uint64_t byte_offset;
  };

  bool PrescanBlob(const PacketRef& packet, std::string_view compressed, uint64_t offset, bool zstd,
                   std::vector<PacketRef>* out, LoadError* error, int depth);
  bool ParsePacket(const PacketRef& p, PacketFields* out, LoadError* error);
  bool ApplyDefaults(const PacketRef& p, const Sub& defaults, SequenceState* seq, LoadError* error);
  bool ApplyInterned(const PacketRef& p, const Sub& interned, SequenceState* seq, LoadError* error);
  bool ApplyLegacyDescriptors(const PacketRef& p, const PacketFields& pk, SequenceState* seq, LoadError* error);
  bool ResolveTimestamp(const PacketRef& p, const PacketFields& pk, SequenceState* seq, int64_t* ts_ns);
  bool ImportEvent(const PacketRef& p, const Sub& event, int64_t ts_ns, SequenceState* seq, LoadError* error);
  TrackId EventTrack(const PacketRef& p, const SequenceState& seq, StringId name, uint64_t* uuid);
  StringId EventName(const SequenceState& seq, uint64_t offset);
  StringId EventCategory(const SequenceState& seq);
  bool BuildArgs(const PacketRef& p, const SequenceState& seq, ArgSetId* args, LoadError* error);
  void AddCounterSample(const PacketRef& p, uint64_t uuid, double raw, TimeNs ts_ns, SequenceState* seq);
  void AddExtraCounters(const PacketRef& p, TimeNs ts_ns, SequenceState* seq);
  void NoteFlows(SliceId slice, TimeNs ts_ns, uint64_t offset);
  void LinkFlows();

  // Errors and offsets: a packet from a blob reports the blob's file offset.
  uint64_t FileOffset(const PacketRef& p, uint64_t offset) const {
    return p.blob_offset == PacketRef::kTopLevel ? offset : p.blob_offset;
  }
  LoadError Malformed(const PacketRef& p, uint64_t offset, const std::string& what) const;

  TraceBuilder* builder_;
  std::string path_;
  LoadOptions options_;
  ClockConverter clocks_;
  TrackRegistry tracks_;
  RenderStageImporter render_stages_;
  std::unordered_map<uint32_t, SequenceState> sequences_;
  SequenceState* last_sequence_ = nullptr;  // runs of packets share a sequence
  uint32_t last_sequence_id_ = 0;
  std::deque<std::string> blobs_;  // inflated compressed_packets; PacketRefs point into them
  ClockSnapshot snapshot_;         // scratch
  TrackEventFields event_;         // scratch, reused per event
  std::vector<Arg> args_;          // scratch
  AnnotationStats annotation_stats_;
  std::vector<FlowEvent> flow_events_;
  std::unordered_map<uint64_t, bool> undescribed_reported_;

  Counted untyped_events_, missing_timestamp_, unconvertible_clock_, missing_name_iid_, needs_state_skipped_,
      data_loss_, non_counter_track_, counter_value_mismatch_, unknown_type_, out_of_range_;
};

}  // namespace stepline::loaders::perfetto
