// SliceTable: one row per complete slice (an X event, a matched B/E pair, an
// XEvent with a duration, an async b/e pair).
//
// Columns (all the same length; the row index is the SliceId):
//   track     TrackId   owning track; never None
//   start_ns  TimeNs    start, ns; after Finalize() sorted ascending within a track
//   dur_ns    DurNs     duration, ns, >= 0 (negative input is clamped to 0 by loaders)
//   name      StringId  event name; 0 = unnamed
//   category  StringId  event category ("cat"); 0 = none. Stored as a 16-bit
//                       index into the table's few distinct categories
//   arg_set   ArgSetId  args in ArgTable; 0 = no args. Not stored at all
//                       while every slice has none (e.g. loaded without args)
//   gpu_kind  GpuKind   kNone for host slices
//   depth     uint16    nesting level within the track, 0 = root (filled by Finalize); on a
//                       GPU stream, work that overlaps earlier work is a root in a later lane
//   parent    SliceId   enclosing slice on the same track; None for roots (filled by Finalize)
//
// After Trace::Finalize() rows are sorted by (track, start_ns, longer first),
// so each track's rows are one contiguous range and a parent precedes its
// children. Before that, rows are in append order and depth/parent are unset.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/gpu_kind.h"
#include "model/column.h"
#include "model/ids.h"
#include "model/time.h"

namespace stepline {

// Read-only views of the two compacted columns; indexing is all callers need.
class CategoryColumn {
 public:
  CategoryColumn(std::span<const uint16_t> index, std::span<const StringId> table) : index_(index), table_(table) {}
  StringId operator[](size_t i) const { return table_[index_[i]]; }
  size_t size() const { return index_.size(); }

 private:
  std::span<const uint16_t> index_;
  std::span<const StringId> table_;
};

class ArgSetColumn {
 public:
  ArgSetColumn(std::span<const ArgSetId> sets, size_t size) : sets_(sets), size_(size) {}
  ArgSetId operator[](size_t i) const { return sets_.empty() ? ArgSetId::None() : sets_[i]; }
  size_t size() const { return size_; }

 private:
  std::span<const ArgSetId> sets_;  // empty: every slice has no args
  size_t size_;
};

class SliceTable {
 public:
  // Distinct categories one table can hold; later ones read as kTooManyCategories' entry.
  static constexpr size_t kMaxCategories = 0xFFFF;

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
  // The columns' storage up to their capacity, as (address, bytes), so a
  // loader that reserved them can have another thread fault the pages in
  // while it appends (the first touch of each page is kernel time on the
  // appending thread otherwise). Only addresses: nothing may be read there.
  std::vector<std::pair<const void*, size_t>> ReservedStorage() const;
  size_t size() const { return start_ns_.size(); }

  std::span<const TrackId> track() const { return track_; }
  std::span<const TimeNs> start_ns() const { return start_ns_; }
  std::span<const DurNs> dur_ns() const { return dur_ns_; }
  std::span<const StringId> name() const { return name_; }
  CategoryColumn category() const { return {category_index_, category_table_}; }
  ArgSetColumn arg_set() const { return {arg_set_, start_ns_.size()}; }
  std::span<const GpuKind> gpu_kind() const { return gpu_kind_; }
  std::span<const uint16_t> depth() const { return depth_; }
  std::span<const SliceId> parent() const { return parent_; }

  TimeNs end_ns(SliceId id) const { return start_ns_[id.index()] + dur_ns_[id.index()]; }
  Row row(SliceId id) const;

  // Building-phase mutators (loaders fix up a slice after appending it).
  void set_dur_ns(SliceId id, DurNs v) { dur_ns_[id.index()] = v; }
  void set_name(SliceId id, StringId v) { name_[id.index()] = v; }
  void set_arg_set(SliceId id, ArgSetId v);
  void set_gpu_kind(SliceId id, GpuKind v) { gpu_kind_[id.index()] = v; }

  size_t MemoryBytes() const;

  // For the column cache (loaders/column_cache): visits every member that
  // makes up the finalized table, in a fixed order (`self` is const when
  // writing, non-const when reading borrowed columns back).
  template <typename Self, typename Visitor>
  static void VisitStorage(Self& self, Visitor& v) {
    v.Col("slices.track", self.track_);
    v.Col("slices.start_ns", self.start_ns_);
    v.Col("slices.dur_ns", self.dur_ns_);
    v.Col("slices.name", self.name_);
    v.Col("slices.category_index", self.category_index_);
    v.Col("slices.category_table", self.category_table_);
    v.Col("slices.arg_set", self.arg_set_);
    v.Col("slices.gpu_kind", self.gpu_kind_);
    v.Col("slices.depth", self.depth_);
    v.Col("slices.parent", self.parent_);
    v.Scalar("slices.last_category", self.last_category_);
    v.Scalar("slices.categories_overflowed", self.categories_overflowed_);
  }

 private:
  friend class Trace;  // Finalize() permutes the columns and fills depth/parent
  Column<TrackId> track_;
  Column<TimeNs> start_ns_;
  Column<DurNs> dur_ns_;
  uint16_t CategoryIndex(StringId category);

  Column<StringId> name_;
  Column<uint16_t> category_index_;  // into category_table_
  Column<StringId> category_table_;  // distinct categories, first use order
  Column<ArgSetId> arg_set_;         // empty while every slice has ArgSetId 0
  std::unordered_map<uint32_t, uint16_t> category_lookup_;  // used past 16 categories
  uint16_t last_category_ = 0;
  uint64_t categories_overflowed_ = 0;

 public:
  uint64_t categories_overflowed() const { return categories_overflowed_; }

 private:
  Column<GpuKind> gpu_kind_;
  Column<uint16_t> depth_;
  Column<SliceId> parent_;
};

}  // namespace stepline
