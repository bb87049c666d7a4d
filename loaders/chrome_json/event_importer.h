// EventImporter: applies Chrome trace phase semantics to RawEventBatches, in
// input order, through one TraceBuilder. Then, once every event is in (M
// events may come last), decides which tracks are GPU rows, classifies GPU
// activity, pairs launches with activities, and names string pids/tids.
//
// Phases: X; B/E (builder's per-track stack, in file order); i/I/R instants
// (thread, process or global scope); C counters; M metadata; s/t/f flows and
// flow v2 (bind_id + flow_in/flow_out on X); b/e/n nestable async and legacy
// S/T/p/F async on their own tracks. N/O/D, P, v/V, (, ), c are counted as
// unsupported; anything else as an unknown phase. Flows and async events are
// matched in time order, not file order (see FlowEvent, AsyncEvent).
//
// Counter series naming: one track per numeric arg of a C event, named
// "<name>" when the arg key is empty (Kineto hardware counters), else
// "<name> <key>"; with an "id", "<name>[<id>]" replaces "<name>" (the id as a
// decimal integer; string ids that are not integers are hashed).
//
// String pids/tids: "123" means 123 and tid "stream 7" means 7 (Kineto);
// any other string maps to the stable key 0x4000000000000000 | (hash >> 2)
// and names the process/thread, unless an M event names it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "loaders/background_release.h"
#include "loaders/chrome_json/correlation_table.h"
#include "loaders/chrome_json/kineto_conventions.h"
#include "loaders/chrome_json/raw_event_batch.h"
#include "loaders/chrome_json/xla_event_cap.h"
#include "loaders/load.h"
#include "loaders/trace_builder.h"
#include "model/grow_array.h"

namespace stepline::loaders {

struct LinkedLaunchChains;  // event_importer_finish.cpp

class EventImporter {
 public:
  EventImporter(TraceBuilder* builder, const LoadOptions& options);

  // Imports one batch; batches must come in input order.
  void Import(const RawEventBatch& batch);
  // The input size, so the first batch can size the slice and arg tables
  // for the whole input (no doubling copies while importing).
  void set_input_bytes(uint64_t bytes) { input_bytes_ = bytes; }
  // The post-pass; call once after the last batch, before builder.Finish().
  void Finish();

  size_t events_imported() const { return events_imported_; }
  // Complete events and their last start, for XLA's event cap (xla_event_cap.h).
  const CompleteEventTally& complete_tally() const { return complete_tally_; }

 private:
  // Per-track facts gathered while importing.
  enum TrackFlags : uint8_t {
    kHasDeviceEvents = 1 << 0,  // holds Kineto device-side categories
    kIsTensorBoardStream = 1 << 1,
    kNamedFromString = 1 << 2,  // its tid was a string, noted in string_tids_
  };
  enum class CorrelationSource : uint8_t { kKinetoRuntime, kKinetoDevice, kTensorBoard };
  // 16 bytes (the id first, no padding between): one per launch and per
  // kernel, so a GB-scale trace holds millions while it loads.
  struct PendingCorrelation {
    uint64_t correlation;
    SliceId slice;
    CorrelationSource source;
  };
  static_assert(sizeof(PendingCorrelation) == 16);
  struct FlowV2 {
    uint64_t bind_id;
    TimeNs ts_ns;
    SliceId slice;
    uint64_t offset;
    bool in, out;
  };
  // s/t/f events wait for the post-pass: producers write them out of time
  // order (Kineto writes a kernel's "f" before the launch's "s"), and flows
  // chain in time order, as Catapult and Perfetto (which sort) chain them.
  struct FlowEvent {
    TimeNs ts_ns;
    uint64_t id;
    uint64_t offset;
    StringId category, name;
    TrackId track;
    TraceBuilder::FlowPhase phase;
    bool bind_enclosing;
  };
  // Async events (b/e/n, S/T/p/F) also wait: Catapult matches them in time
  // order, and its traces write many F before their S.
  struct AsyncEvent {
    TimeNs ts_ns;
    uint64_t offset;
    TrackId track;
    StringId name, category;
    ArgSetId args;
    char ph;
  };
  struct CounterKey {
    int64_t pid;
    uint32_t name, key;
    uint64_t id;
    bool has_id;
    bool operator==(const CounterKey&) const = default;
  };
  struct CounterKeyHash {
    size_t operator()(const CounterKey& k) const {
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.pid) * 0x9E3779B97F4A7C15ull ^ k.name ^
                                   (uint64_t{k.key} << 32) ^ k.id * 31 ^ k.has_id);
    }
  };

  // --- Per batch -------------------------------------------------------------
  StringId Global(uint32_t local);
  std::string_view Text(uint32_t local) const { return batch_->strings.Get(local); }
  int64_t Pid(const RawEvent& e);
  int64_t Tid(const RawEvent& e);
  int64_t StringKey(uint32_t local);
  TrackId Track(const RawEvent& e);
  ArgSetId Args(const RawEvent& e);
  const RawArg* FindArg(const RawEvent& e, uint32_t key) const;
  CategoryTraits Traits(StringId category);
  GpuKind DeviceGpuKind(KinetoCategory kind, StringId name);
  bool RequireTs(const RawEvent& e);

  // --- Phases ------------------------------------------------------------------
  void ImportEvent(const RawEvent& e);
  void ImportComplete(const RawEvent& e);
  void ImportBegin(const RawEvent& e);
  void ImportInstant(const RawEvent& e);
  void ImportCounter(const RawEvent& e);
  void ImportMetadata(const RawEvent& e);
  void ImportFlow(const RawEvent& e);
  void ImportAsync(const RawEvent& e);
  void ImportLegacyAsync(const RawEvent& e);
  void NoteSlice(const RawEvent& e, SliceId slice, TrackId track, CategoryTraits traits);
  void ReserveTables(const RawEventBatch& first);
  void Diag(DiagCode code, uint64_t offset, std::string detail) { builder_->diag().Record(code, offset, detail); }

  // --- Finish ----------------------------------------------------------------
  void ReplayAsync();
  static bool FlowChainOrder(const FlowEvent& a, const FlowEvent& b);
  static bool SameChain(const FlowEvent& a, const FlowEvent& b);
  void LinkFlows();
  void NameTracksAndDevices();
  CorrelationTable BuildCorrelationTable() const;
  void LinkLaunchFlows(std::span<const FlowEvent> events, const CorrelationTable& table);
  static void LinkLaunchChains(std::span<const FlowEvent> events, const CorrelationTable& table,
                               LinkedLaunchChains* out);
  void LinkFlowV2();
  void AssignDevices();
  void ClassifyTensorBoardStreams();
  void LinkCorrelations();
  void NameStringKeys();
  void StoreMetadata();

  TraceBuilder* builder_;
  bool keep_args_;
  int threads_;  // for the post-pass; 1 = this thread only
  size_t events_imported_ = 0;
  CompleteEventTally complete_tally_;
  uint64_t input_bytes_ = 0;
  bool reserved_ = false;

  const RawEventBatch* batch_ = nullptr;
  std::vector<uint32_t> remap_;  // local string id -> StringId value; UINT32_MAX = not yet interned

  // Track lookup cache: consecutive events mostly share a thread.
  int64_t last_pid_ = 0, last_tid_ = 0;
  TrackId last_track_;

  CategoryTraitsCache category_traits_;
  std::vector<uint8_t> gpu_kind_cache_;   // by name StringId: KinetoCategory << 4 | (GpuKind + 1); 0 = unknown
  std::vector<uint8_t> track_flags_;      // by TrackId
  std::unordered_map<uint32_t, int64_t> string_keys_;  // StringId -> synthetic pid/tid key
  std::unordered_set<int64_t> named_pids_;
  std::vector<std::pair<int64_t, StringId>> string_pids_;  // pid key -> the string it came from
  std::vector<std::pair<TrackId, StringId>> string_tids_;  // thread track -> its tid string
  std::unordered_map<int64_t, int32_t> label_devices_;     // pid -> device from process_labels "GPU n"
  std::unordered_map<CounterKey, TrackId, CounterKeyHash> counter_tracks_;
  GrowArray<PendingCorrelation> correlations_;
  std::vector<std::pair<SliceId, GpuKind>> memcpy_details_;
  GrowArray<FlowEvent> flow_events_;         // generic flows, linked by time
  GrowArray<FlowEvent> launch_flow_events_;  // launch flows, linked by correlation
  std::vector<AsyncEvent> async_events_;
  GrowArray<FlowV2> flow_v2_;
  std::vector<Arg> metadata_;
  int64_t base_time_ns_ = 0;
  bool has_base_time_ = false;
  BackgroundRelease release_;  // the post-pass's spent temporaries; waited for by the destructor
};

}  // namespace stepline::loaders
