// The smaller event tables: instants, counter samples and flows.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/column.h"
#include "model/grow_array.h"
#include "model/ids.h"
#include "model/time.h"

namespace stepline {

// InstantTable: zero-duration events (Chrome i/I/n, XEvents with no duration
// on non-counter lines). Columns:
//   track     TrackId   owning track (thread, async, or kMarkers for p/g scope)
//   ts_ns     TimeNs    time, ns; after Finalize() sorted ascending within a track
//   name      StringId  0 = unnamed
//   category  StringId  0 = none
//   arg_set   ArgSetId  0 = no args
// After Finalize() rows are sorted by (track, ts_ns).
class InstantTable {
 public:
  struct Row {
    TrackId track;
    TimeNs ts_ns = 0;
    StringId name;
    StringId category;
    ArgSetId arg_set;
  };
  InstantId Append(const Row& row);
  // Building phase: room for `n` more rows, and (address, bytes) of each
  // column's capacity for a loader's pre-faulting (as SliceTable's).
  void Reserve(size_t n);
  std::vector<std::pair<const void*, size_t>> ReservedStorage() const;
  size_t size() const { return ts_ns_.size(); }
  std::span<const TrackId> track() const { return track_; }
  std::span<const TimeNs> ts_ns() const { return ts_ns_; }
  std::span<const StringId> name() const { return name_; }
  std::span<const StringId> category() const { return category_; }
  std::span<const ArgSetId> arg_set() const { return arg_set_; }
  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("instants.track", self.track_);
    v.Col("instants.ts_ns", self.ts_ns_);
    v.Col("instants.name", self.name_);
    v.Col("instants.category", self.category_);
    v.Col("instants.arg_set", self.arg_set_);
  }

 private:
  friend class Trace;
  Column<TrackId> track_;
  Column<TimeNs> ts_ns_;
  Column<StringId> name_;
  Column<StringId> category_;
  Column<ArgSetId> arg_set_;
};

// CounterTable: one row per sample of a kCounter track. Columns:
//   track  TrackId  the counter track (one per series)
//   ts_ns  TimeNs   sample time, ns; after Finalize() sorted ascending within a track
//   value  double   sample value, in the counter's own unit
class CounterTable {
 public:
  void Append(TrackId track, TimeNs ts_ns, double value);
  size_t size() const { return ts_ns_.size(); }
  std::span<const TrackId> track() const { return track_; }
  std::span<const TimeNs> ts_ns() const { return ts_ns_; }
  std::span<const double> value() const { return value_; }
  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("counters.track", self.track_);
    v.Col("counters.ts_ns", self.ts_ns_);
    v.Col("counters.value", self.value_);
  }

 private:
  friend class Trace;
  Column<TrackId> track_;
  Column<TimeNs> ts_ns_;
  Column<double> value_;
};

enum class FlowKind : uint8_t {
  kGeneric = 0,  // a Chrome s/t/f flow, an XSpace producer/consumer link
  kLaunch,       // host launch call -> the GPU activity it launched (correlation id, ac2g)
};

// Where one end of a flow attaches while the trace is being built. Either a
// slice the loader already knows, or a (track, time) pair bound during
// Finalize() the way Chrome binds s/t/f events.
struct FlowEndpoint {
  enum class Binding : uint8_t {
    kSlice,      // `slice` is set (a pre-Finalize SliceId)
    kEnclosing,  // deepest slice on `track` containing ts_ns (Chrome "bp":"e", and every flow start)
    kNext,       // first slice on `track` starting at or after ts_ns (Chrome flow end without "bp":"e")
  };
  Binding binding = Binding::kSlice;
  SliceId slice;
  TrackId track;
  TimeNs ts_ns = 0;

  static FlowEndpoint OfSlice(SliceId s) { return {Binding::kSlice, s, TrackId::None(), 0}; }
  static FlowEndpoint Enclosing(TrackId t, TimeNs ts) { return {Binding::kEnclosing, SliceId::None(), t, ts}; }
  static FlowEndpoint Next(TrackId t, TimeNs ts) { return {Binding::kNext, SliceId::None(), t, ts}; }
};

// FlowTable: one row per arrow between two slices. Columns:
//   from      SliceId   source slice (a launch call for kLaunch)
//   to        SliceId   destination slice (a kernel / copy for kLaunch)
//   kind      FlowKind
//   name      StringId  flow name; 0 = none
//   category  StringId  flow category (ac2g, fwdbwd, ...); 0 = none
//   flow_id   uint64    id from the trace (JSON id, correlation id); 0 = none
// After Finalize() rows are sorted by (from, to) and unique per (from, to, kind);
// endpoints that could not be bound are dropped with a diagnostic.
class FlowTable {
 public:
  struct Pending {
    FlowEndpoint from, to;
    FlowKind kind = FlowKind::kGeneric;
    StringId name, category;
    uint64_t flow_id = 0;
    uint64_t byte_offset = 0;  // where the flow's last event was, for diagnostics
  };
  void AddPending(const Pending& p) { pending_.push_back(p); }  // building phase
  // A kLaunch flow between two known slices (pre-Finalize ids), with no name
  // or category: most of a GPU trace's flows. Kept in 16 bytes instead of a
  // Pending's 80, and bound with no search; added in (from, to) order, the
  // flows need no sort in Finalize() unless the slices were reordered.
  struct LaunchLink {
    SliceId from, to;
    uint64_t flow_id;
  };
  void AddLaunchLink(SliceId from, SliceId to, uint64_t flow_id) { launch_links_.push_back({from, to, flow_id}); }
  void AddLaunchLinks(std::vector<LaunchLink>&& links) {
    if (launch_links_.empty()) {
      launch_links_ = std::move(links);
    } else {
      launch_links_.insert(launch_links_.end(), links.begin(), links.end());
    }
  }
  // A kLaunch flow between two known slices (pre-Finalize ids) that has a
  // name and category: Kineto's and TensorBoard's ac2g flows, bound by
  // correlation id (loaders/chrome_json). 24 bytes instead of a Pending's
  // 80, bound by renumbering in place: millions of them on a large trace,
  // and every byte of them fresh memory in the serial tail of a load.
  struct LaunchFlow {
    SliceId from, to;
    StringId name, category;
    uint64_t flow_id;
  };
  void AddLaunchFlow(const LaunchFlow& f) { launch_flows_.push_back(f); }
  // Taken over whole when there are none yet (no copy), appended otherwise.
  void AddLaunchFlows(GrowArray<LaunchFlow>&& flows) {
    if (launch_flows_.empty()) {
      launch_flows_.swap(flows);
    } else {
      launch_flows_.append(flows.data(), flows.size());
    }
    flows.release();
  }
  // Lets the builder rewrite the `from` endpoint of pending flows of `kind`
  // (called with each flow's id) before Finalize() binds them; launch flows
  // count as kLaunch.
  template <typename Fn>
  void ResolvePendingFrom(FlowKind kind, Fn&& fn) {
    for (Pending& p : pending_) {
      if (p.kind == kind) fn(p.flow_id, &p.from);
    }
    if (kind != FlowKind::kLaunch) return;
    for (LaunchFlow& f : launch_flows_) {
      FlowEndpoint from = FlowEndpoint::OfSlice(f.from);
      fn(f.flow_id, &from);
      if (from.binding == FlowEndpoint::Binding::kSlice) f.from = from.slice;
    }
  }

  size_t size() const { return from_.size(); }
  std::span<const SliceId> from() const { return from_; }
  std::span<const SliceId> to() const { return to_; }
  std::span<const FlowKind> kind() const { return kind_; }
  std::span<const StringId> name() const { return name_; }
  std::span<const StringId> category() const { return category_; }
  std::span<const uint64_t> flow_id() const { return flow_id_; }
  size_t MemoryBytes() const;

  // As the other tables' (pending flows and launch links are bound and gone
  // once the trace is finalized, so they are not stored).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    if (!self.pending_.empty() || !self.launch_links_.empty() || !self.launch_flows_.empty()) {
      return v.Fail("flows: unbound flows in a finalized trace");
    }
    v.Col("flows.from", self.from_);
    v.Col("flows.to", self.to_);
    v.Col("flows.kind", self.kind_);
    v.Col("flows.name", self.name_);
    v.Col("flows.category", self.category_);
    v.Col("flows.flow_id", self.flow_id_);
  }

 private:
  friend class Trace;
  std::vector<Pending> pending_;
  std::vector<LaunchLink> launch_links_;
  GrowArray<LaunchFlow> launch_flows_;
  Column<SliceId> from_, to_;
  Column<FlowKind> kind_;
  Column<StringId> name_, category_;
  Column<uint64_t> flow_id_;
};

}  // namespace stepline
