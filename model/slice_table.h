// SliceTable: one row per complete slice (an X event, a matched B/E pair, an
// XEvent with a duration, an async b/e pair).
//
// Columns (all the same length; the row index is the SliceId):
//   track     TrackId   owning track; never None
//   start_ns  TimeNs    start, ns; after Finalize() sorted ascending within a track
//   dur_ns    DurNs     duration, ns, >= 0 (negative input is clamped to 0 by loaders)
//   name      StringId  event name; 0 = unnamed
//   category  StringId  event category ("cat"); 0 = none
//   arg_set   ArgSetId  args in ArgTable; 0 = no args
//   gpu_kind  GpuKind   kNone for host slices
//   depth     uint16    nesting level within the track, 0 = root (filled by Finalize)
//   parent    SliceId   enclosing slice on the same track; None for roots (filled by Finalize)
//
// After Trace::Finalize() rows are sorted by (track, start_ns, longer first),
// so each track's rows are one contiguous range and a parent precedes its
// children. Before that, rows are in append order and depth/parent are unset.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "model/gpu_kind.h"
#include "model/ids.h"
#include "model/time.h"

namespace stepline {

class SliceTable {
 public:
  struct Row {
    TrackId track;
    TimeNs start_ns = 0;
    DurNs dur_ns = 0;
    StringId name;
    StringId category;
    ArgSetId arg_set;
    GpuKind gpu_kind = GpuKind::kNone;
  };

  SliceId Append(const Row& row);  // building phase only
  void Reserve(size_t n);
  size_t size() const { return start_ns_.size(); }

  std::span<const TrackId> track() const { return track_; }
  std::span<const TimeNs> start_ns() const { return start_ns_; }
  std::span<const DurNs> dur_ns() const { return dur_ns_; }
  std::span<const StringId> name() const { return name_; }
  std::span<const StringId> category() const { return category_; }
  std::span<const ArgSetId> arg_set() const { return arg_set_; }
  std::span<const GpuKind> gpu_kind() const { return gpu_kind_; }
  std::span<const uint16_t> depth() const { return depth_; }
  std::span<const SliceId> parent() const { return parent_; }

  TimeNs end_ns(SliceId id) const { return start_ns_[id.index()] + dur_ns_[id.index()]; }
  Row row(SliceId id) const;

  // Building-phase mutators (loaders fix up a slice after appending it).
  void set_dur_ns(SliceId id, DurNs v) { dur_ns_[id.index()] = v; }
  void set_name(SliceId id, StringId v) { name_[id.index()] = v; }
  void set_arg_set(SliceId id, ArgSetId v) { arg_set_[id.index()] = v; }
  void set_gpu_kind(SliceId id, GpuKind v) { gpu_kind_[id.index()] = v; }

  size_t MemoryBytes() const;

 private:
  friend class Trace;  // Finalize() permutes the columns and fills depth/parent
  std::vector<TrackId> track_;
  std::vector<TimeNs> start_ns_;
  std::vector<DurNs> dur_ns_;
  std::vector<StringId> name_;
  std::vector<StringId> category_;
  std::vector<ArgSetId> arg_set_;
  std::vector<GpuKind> gpu_kind_;
  std::vector<uint16_t> depth_;
  std::vector<SliceId> parent_;
};

}  // namespace stepline
