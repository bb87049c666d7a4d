// TrackRegistry: every TrackDescriptor of the trace by uuid, and the model
// track each one becomes (created on first use, so described-but-empty tracks
// make no rows).
//
// Mapping (trace-formats.md 3.3):
//   thread descriptor      kHostThread track (pid, tid) via TraceBuilder::ThreadTrack,
//                          so several uuids of one thread share a row
//   process descriptor     names process `pid`; events on the process track
//                          itself go to an async track of that process
//   counter descriptor     a kCounter track of its own, in the process of its
//                          nearest process/thread ancestor (else the global one)
//   anything else          an async track (async/custom tracks), in the process
//                          of its nearest process/thread ancestor, else in the
//                          "Global" process; unnamed ones take the first
//                          event's name. Deeper nesting is flattened.
// Descriptors are collected before any event is imported (a producer may
// describe a track after using it); a uuid described twice merges, later
// non-empty fields winning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "loaders/trace_builder.h"

namespace stepline::loaders::perfetto {

struct TrackDescription {
  uint64_t uuid = 0;
  uint64_t parent_uuid = 0;  // 0 = none
  std::string name;
  bool is_process = false, is_thread = false, is_counter = false;
  int64_t pid = 0, tid = 0;
  std::string process_name, thread_name;
  // Counter tracks only.
  uint32_t counter_type = 0;  // 1 thread time ns, 2 instruction count
  int64_t unit_multiplier = 1;
  bool is_incremental = false;
  std::string unit_name;
};

// Decodes a TrackDescriptor payload; false on malformed bytes (`error_offset`,
// `error` set).
bool ParseTrackDescriptor(std::string_view bytes, uint64_t base_offset, TrackDescription* out, uint64_t* error_offset,
                          const char** error);

class TrackRegistry {
 public:
  explicit TrackRegistry(TraceBuilder* builder) : builder_(builder) {}

  void Describe(const TrackDescription& d);
  const TrackDescription* Find(uint64_t uuid) const;

  // The model track for `uuid`; `first_event_name` names an unnamed async
  // track. A uuid nobody described becomes a global async track (the caller
  // reports it once; see was_undescribed()).
  TrackId Resolve(uint64_t uuid, StringId first_event_name);
  // The track of the legacy per-sequence thread (thread_descriptor packet).
  TrackId LegacyThread(int64_t pid, int64_t tid, std::string_view thread_name);
  bool was_undescribed(uint64_t uuid) const { return undescribed_.contains(uuid); }

 private:
  TrackId Create(uint64_t uuid, StringId first_event_name);
  // pid of the nearest process/thread ancestor (the track itself included);
  // false if there is none.
  bool OwnerPid(const TrackDescription& d, int64_t* pid, const TrackDescription** thread) const;
  void NameProcess(int64_t pid);

  TraceBuilder* builder_;
  std::unordered_map<uint64_t, TrackDescription> descriptions_;
  std::unordered_map<int64_t, std::string> process_names_;  // by pid, from process descriptors
  std::unordered_map<uint64_t, TrackId> tracks_;
  std::unordered_map<int64_t, bool> process_named_;
  std::unordered_map<uint64_t, bool> undescribed_;
};

}  // namespace stepline::loaders::perfetto
