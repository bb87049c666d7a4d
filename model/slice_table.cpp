// SliceTable appends; sorting and depth live in Trace::Finalize().
#include "model/slice_table.h"

namespace stepline {

SliceId SliceTable::Append(const Row& row) {
  const SliceId id = SliceId::FromIndex(start_ns_.size());
  track_.push_back(row.track);
  start_ns_.push_back(row.start_ns);
  dur_ns_.push_back(row.dur_ns);
  name_.push_back(row.name);
  category_index_.push_back(CategoryIndex(row.category));
  gpu_kind_.push_back(row.gpu_kind);
  if (!arg_set_.empty()) {
    arg_set_.push_back(row.arg_set);
  } else if (!row.arg_set.is_none()) {
    set_arg_set(id, row.arg_set);
  }
  return id;
}

uint16_t SliceTable::CategoryIndex(StringId category) {
  // Few distinct categories in practice: a linear scan from the most recent
  // hit beats a hash map.
  if (last_category_ < category_table_.size() && category_table_[last_category_] == category) return last_category_;
  if (category_table_.size() <= 16) {
    for (size_t i = 0; i < category_table_.size(); ++i) {
      if (category_table_[i] == category) return last_category_ = static_cast<uint16_t>(i);
    }
  } else if (auto it = category_lookup_.find(category.value); it != category_lookup_.end()) {
    return last_category_ = it->second;
  }
  if (category_table_.size() >= kMaxCategories) {
    // Beyond 65535 distinct categories later ones share the last entry;
    // Trace::Finalize() reports it.
    ++categories_overflowed_;
    return static_cast<uint16_t>(kMaxCategories - 1);
  }
  category_table_.push_back(category);
  last_category_ = static_cast<uint16_t>(category_table_.size() - 1);
  if (category_table_.size() == 17) {
    for (size_t i = 0; i < category_table_.size(); ++i) category_lookup_[category_table_[i].value] = static_cast<uint16_t>(i);
  } else if (category_table_.size() > 17) {
    category_lookup_[category.value] = last_category_;
  }
  return last_category_;
}

void SliceTable::set_arg_set(SliceId id, ArgSetId v) {
  if (arg_set_.empty()) {
    if (v.is_none()) return;
    // First slice with args: materialize, with the other columns' capacity
    // (a loader's exact reservation) so that the column is not grown by
    // doubling from here on.
    arg_set_.reserve(start_ns_.capacity());
    arg_set_.assign(start_ns_.size(), ArgSetId::None());
  }
  arg_set_[id.index()] = v;
}

void SliceTable::Reserve(size_t n) {
  track_.reserve(n);
  start_ns_.reserve(n);
  dur_ns_.reserve(n);
  name_.reserve(n);
  category_index_.reserve(n);
  gpu_kind_.reserve(n);
  // Filled by Finalize(); reserved now so that a loader's pre-faulting
  // (ReservedStorage) covers them too.
  depth_.reserve(n);
  parent_.reserve(n);
}

namespace {
template <typename T>
void AddStorage(const Column<T>& column, std::vector<std::pair<const void*, size_t>>* out) {
  if (column.capacity() > 0) out->emplace_back(column.data(), column.capacity() * sizeof(T));
}
}  // namespace

std::vector<std::pair<const void*, size_t>> SliceTable::ReservedStorage() const {
  std::vector<std::pair<const void*, size_t>> out;
  AddStorage(track_, &out);
  AddStorage(start_ns_, &out);
  AddStorage(dur_ns_, &out);
  AddStorage(name_, &out);
  AddStorage(category_index_, &out);
  AddStorage(gpu_kind_, &out);
  AddStorage(depth_, &out);
  AddStorage(parent_, &out);
  return out;
}

SliceTable::Row SliceTable::row(SliceId id) const {
  const size_t i = id.index();
  return Row{track_[i], start_ns_[i], dur_ns_[i], name_[i], category()[i], arg_set()[i], gpu_kind_[i]};
}

size_t SliceTable::MemoryBytes() const {
  return track_.capacity() * sizeof(TrackId) + (start_ns_.capacity() + dur_ns_.capacity()) * sizeof(int64_t) +
         name_.capacity() * sizeof(StringId) + category_index_.capacity() * sizeof(uint16_t) +
         category_table_.capacity() * sizeof(StringId) + arg_set_.capacity() * sizeof(ArgSetId) +
         gpu_kind_.capacity() * sizeof(GpuKind) + depth_.capacity() * sizeof(uint16_t) +
         parent_.capacity() * sizeof(SliceId);
}

}  // namespace stepline
