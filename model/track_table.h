// Processes and tracks. A process groups tracks (an OS process, or one device);
// a track is one timeline row-group: a host thread, a GPU stream, a counter, an
// async id, or a row derived by the profiler (XProf's "Steps", "XLA Ops").
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "model/column.h"
#include "model/ids.h"
#include "model/time.h"

namespace stepline {

enum class TrackKind : uint8_t {
  kHostThread = 0,  // one OS thread (or a host line of an XPlane)
  kGpuStream,       // one GPU stream / queue of one device
  kGpuDerived,      // profiler-derived row of a device: Steps, Framework Ops, XLA Ops, name scopes
  kCounter,         // a counter series, samples in CounterTable
  kAsync,           // one async id (b/e/n or S/T/F), its own row
  kMarkers,         // process- or global-scoped instant events
};
inline constexpr int kTrackKindCount = 6;
std::string_view TrackKindName(TrackKind kind);  // "host_thread", "gpu_stream", ...

// One row per process or device. Not sorted; ids are creation order.
class ProcessTable {
 public:
  struct Row {
    int64_t pid = 0;         // pid as in the trace (JSON pid, XPlane id); for devices, the device's pid
    StringId name;           // process_name / plane name; 0 = unnamed
    int32_t sort_index = 0;  // process_sort_index; ties broken by pid
    int32_t device_id = -1;  // GPU/TPU ordinal when this process is a device, else -1
  };
  ProcessId Append(const Row& row);
  size_t size() const { return pid_.size(); }
  int64_t pid(ProcessId id) const { return pid_[id.index()]; }
  StringId name(ProcessId id) const { return name_[id.index()]; }
  int32_t sort_index(ProcessId id) const { return sort_index_[id.index()]; }
  int32_t device_id(ProcessId id) const { return device_id_[id.index()]; }
  void set_name(ProcessId id, StringId v) { name_[id.index()] = v; }
  void set_sort_index(ProcessId id, int32_t v) { sort_index_[id.index()] = v; }
  void set_device_id(ProcessId id, int32_t v) { device_id_[id.index()] = v; }
  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("processes.pid", self.pid_);
    v.Col("processes.name", self.name_);
    v.Col("processes.sort_index", self.sort_index_);
    v.Col("processes.device_id", self.device_id_);
  }

 private:
  Column<int64_t> pid_;
  Column<StringId> name_;
  Column<int32_t> sort_index_;
  Column<int32_t> device_id_;
};

// One row per track. Not sorted; ids are creation order. The per-track row
// ranges are filled by Trace::Finalize().
class TrackTable {
 public:
  struct Row {
    TrackKind kind = TrackKind::kHostThread;
    ProcessId process;        // owning process; never None in a finalized trace
    int64_t tid = 0;          // thread id / stream id / async id (low 64 bits) / 0
    StringId name;            // thread_name, "Stream #7", counter name, ...; 0 = unnamed
    int32_t sort_index = 0;   // thread_sort_index; ties broken by tid
    int32_t device_id = -1;   // device ordinal for kGpuStream / kGpuDerived, else -1
    StringId category;        // async/counter category; 0 = none
  };
  // Row ranges [begin, end) into the sorted SliceTable / InstantTable /
  // CounterTable, and the deepest slice depth + 1. Valid after Finalize().
  struct Ranges {
    uint32_t slice_begin = 0, slice_end = 0;
    uint32_t instant_begin = 0, instant_end = 0;
    uint32_t counter_begin = 0, counter_end = 0;
    uint16_t max_depth = 0;  // number of nesting levels (0 for an empty track)
  };

  TrackId Append(const Row& row);
  size_t size() const { return kind_.size(); }
  TrackKind kind(TrackId id) const { return kind_[id.index()]; }
  ProcessId process(TrackId id) const { return process_[id.index()]; }
  int64_t tid(TrackId id) const { return tid_[id.index()]; }
  StringId name(TrackId id) const { return name_[id.index()]; }
  int32_t sort_index(TrackId id) const { return sort_index_[id.index()]; }
  int32_t device_id(TrackId id) const { return device_id_[id.index()]; }
  StringId category(TrackId id) const { return category_[id.index()]; }
  const Ranges& ranges(TrackId id) const { return ranges_[id.index()]; }

  void set_kind(TrackId id, TrackKind v) { kind_[id.index()] = v; }
  void set_name(TrackId id, StringId v) { name_[id.index()] = v; }
  void set_sort_index(TrackId id, int32_t v) { sort_index_[id.index()] = v; }
  void set_device_id(TrackId id, int32_t v) { device_id_[id.index()] = v; }
  Ranges& mutable_ranges(TrackId id) { return ranges_[id.index()]; }
  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("tracks.kind", self.kind_);
    v.Col("tracks.process", self.process_);
    v.Col("tracks.tid", self.tid_);
    v.Col("tracks.name", self.name_);
    v.Col("tracks.sort_index", self.sort_index_);
    v.Col("tracks.device_id", self.device_id_);
    v.Col("tracks.category", self.category_);
    v.Col("tracks.ranges", self.ranges_);
  }

 private:
  Column<TrackKind> kind_;
  Column<ProcessId> process_;
  Column<int64_t> tid_;
  Column<StringId> name_;
  Column<int32_t> sort_index_;
  Column<int32_t> device_id_;
  Column<StringId> category_;
  Column<Ranges> ranges_;
};

}  // namespace stepline
