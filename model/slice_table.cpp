// SliceTable appends; sorting and depth live in Trace::Finalize().
#include "model/slice_table.h"

namespace stepline {

SliceId SliceTable::Append(const Row& row) {
  const SliceId id = SliceId::FromIndex(start_ns_.size());
  track_.push_back(row.track);
  start_ns_.push_back(row.start_ns);
  dur_ns_.push_back(row.dur_ns);
  name_.push_back(row.name);
  category_.push_back(row.category);
  arg_set_.push_back(row.arg_set);
  gpu_kind_.push_back(row.gpu_kind);
  return id;
}

void SliceTable::Reserve(size_t n) {
  track_.reserve(n);
  start_ns_.reserve(n);
  dur_ns_.reserve(n);
  name_.reserve(n);
  category_.reserve(n);
  arg_set_.reserve(n);
  gpu_kind_.reserve(n);
}

SliceTable::Row SliceTable::row(SliceId id) const {
  const size_t i = id.index();
  return Row{track_[i], start_ns_[i], dur_ns_[i], name_[i], category_[i], arg_set_[i], gpu_kind_[i]};
}

size_t SliceTable::MemoryBytes() const {
  return track_.capacity() * sizeof(TrackId) + (start_ns_.capacity() + dur_ns_.capacity()) * sizeof(int64_t) +
         (name_.capacity() + category_.capacity()) * sizeof(StringId) + arg_set_.capacity() * sizeof(ArgSetId) +
         gpu_kind_.capacity() * sizeof(GpuKind) + depth_.capacity() * sizeof(uint16_t) +
         parent_.capacity() * sizeof(SliceId);
}

}  // namespace stepline
