// TraceBuilder: the shared work of every format loader. Loaders tokenize
// their format and call this; it interns strings, finds or creates processes
// and tracks, matches B/E pairs with a stack per track, chains s/t/f flows,
// pairs launch calls with GPU activities by correlation id, and finally hands
// the Trace to Trace::Finalize().
//
// Single-threaded: a parallel tokenizer hands its events to one builder in
// input order (B/E matching depends on that order).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "loaders/background_release.h"
#include "loaders/launch_links.h"
#include "model/trace.h"

namespace stepline::loaders {

// Sentinel pid for global-scope markers (Chrome "s":"g" instants).
inline constexpr int64_t kGlobalPid = INT64_MIN;

class TraceBuilder {
 public:
  explicit TraceBuilder(std::string format);

  Trace& trace() { return trace_; }
  Diagnostics& diag() { return trace_.mutable_diagnostics(); }
  StringId Intern(std::string_view s) { return trace_.mutable_strings().Intern(s); }
  StringId Intern(std::string_view s, uint64_t hash) { return trace_.mutable_strings().Intern(s, hash); }
  ArgSetId AddArgs(std::span<const Arg> args) { return trace_.mutable_args().AddSet(args); }

  // --- Processes and tracks ------------------------------------------------
  ProcessId Process(int64_t pid);  // created on first use, named later
  // A second, different name for the same pid records kDuplicateMetadata (the
  // last name wins, as in Chrome).
  void SetProcessName(int64_t pid, std::string_view name, uint64_t byte_offset);
  void SetProcessSortIndex(int64_t pid, int32_t sort_index);
  void SetProcessDevice(int64_t pid, int32_t device_id);
  StringId ProcessName(int64_t pid) const;

  // The thread (or GPU stream) track (pid, tid); kind kHostThread until the
  // loader calls SetTrackKind.
  TrackId ThreadTrack(int64_t pid, int64_t tid);
  void SetThreadName(int64_t pid, int64_t tid, std::string_view name, uint64_t byte_offset);
  void SetThreadSortIndex(int64_t pid, int64_t tid, int32_t sort_index);
  void SetTrackKind(TrackId track, TrackKind kind, int32_t device_id = -1);
  // One track per (pid, key, id), named after the first event: async b/e/n
  // and S/T/F events (key = category, or name for legacy S/F).
  TrackId AsyncTrack(int64_t pid, StringId key, uint64_t id, StringId display_name);
  // One counter track per (pid, series name).
  TrackId CounterTrack(int64_t pid, std::string_view series_name, StringId category = StringId::None());
  // One markers track per pid (kGlobalPid: a single global one).
  TrackId MarkerTrack(int64_t pid);
  // A track the loader builds itself (XSpace lines); not reachable by (pid, tid).
  TrackId AddTrack(const TrackTable::Row& row) { return trace_.mutable_tracks().Append(row); }

  // --- Events --------------------------------------------------------------
  SliceId AddSlice(const SliceTable::Row& row) { return trace_.mutable_slices().Append(row); }
  // B: opens a slice on `track`. E: closes the most recent open one; an E
  // with no open B records kUnmatchedEnd and returns None. E's args are
  // merged into B's; EndSlice returns the slice it closed.
  SliceId BeginSlice(TrackId track, TimeNs ts_ns, StringId name, StringId category, ArgSetId args,
                     uint64_t byte_offset);
  SliceId EndSlice(TrackId track, TimeNs ts_ns, ArgSetId end_args, uint64_t byte_offset);
  void AddInstant(const InstantTable::Row& row) { trace_.mutable_instants().Append(row); }
  void AddCounter(TrackId track, TimeNs ts_ns, double value) { trace_.mutable_counters().Append(track, ts_ns, value); }

  // Chrome flow v1 events. Chained by (category, name, id): s starts, t
  // continues (one flow per hop), f ends. `bind_enclosing_end` is "bp":"e".
  enum class FlowPhase : uint8_t { kStart, kStep, kEnd };
  void AddFlowEvent(FlowPhase phase, uint64_t id, StringId category, StringId name, TrackId track, TimeNs ts_ns,
                    bool bind_enclosing_end, FlowKind kind, uint64_t byte_offset);
  void AddFlow(const FlowTable::Pending& flow) { trace_.mutable_flows().AddPending(flow); }

  // Launch -> GPU activity pairing by correlation id (Kineto "correlation",
  // XSpace correlation_id). Each device activity gets a kLaunch flow from the
  // launch with the same id; ids seen on one side only are ignored.
  void NoteLaunch(uint64_t correlation_id, SliceId launch);
  void NoteDeviceActivity(uint64_t correlation_id, SliceId activity);

  // Closes open slices (kUnmatchedBegin, ended at the track's last time),
  // reports unfinished flows, adds launch flows, and finalizes.
  Trace Finish();

 private:
  struct OpenSlice {
    SliceId slice;
    uint64_t byte_offset;
  };
  struct PidTid {
    int64_t pid, tid;
    bool operator==(const PidTid&) const = default;
  };
  struct PidTidHash {
    size_t operator()(const PidTid& k) const {
      // Unsigned arithmetic: large (synthetic) pids must not overflow a signed multiply.
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.pid) * 1000003u ^ static_cast<uint64_t>(k.tid));
    }
  };
  struct AsyncKey {
    int64_t pid;
    uint32_t key;
    uint64_t id;
    bool operator==(const AsyncKey&) const = default;
  };
  struct AsyncKeyHash {
    size_t operator()(const AsyncKey& k) const {
      return std::hash<uint64_t>()(static_cast<uint64_t>(k.pid) * 31 + k.key * 1000003ull + k.id);
    }
  };
  struct FlowKey {
    uint32_t category, name;
    uint64_t id;
    bool operator==(const FlowKey&) const = default;
  };
  struct FlowKeyHash {
    size_t operator()(const FlowKey& k) const { return std::hash<uint64_t>()(k.id * 1000003ull ^ k.category ^ (uint64_t{k.name} << 32)); }
  };
  struct OpenFlow {
    FlowEndpoint from;
    FlowKind kind;
    uint64_t byte_offset;
  };

  Trace trace_;
  std::unordered_map<int64_t, ProcessId> process_by_pid_;
  std::unordered_map<PidTid, TrackId, PidTidHash> thread_tracks_;
  std::unordered_map<AsyncKey, TrackId, AsyncKeyHash> async_tracks_;
  std::unordered_map<std::string, TrackId> counter_tracks_;  // key: pid + '\0' + series
  std::unordered_map<int64_t, TrackId> marker_tracks_;
  std::vector<std::vector<OpenSlice>> open_slices_;  // per TrackId
  std::unordered_map<FlowKey, OpenFlow, FlowKeyHash> open_flows_;
  LaunchLinks launch_links_;
  // Spent temporaries of Finish(), freed while Trace::Finalize runs; the
  // builder's destructor waits for them.
  BackgroundRelease release_{std::thread::hardware_concurrency() > 1};
};

}  // namespace stepline::loaders
