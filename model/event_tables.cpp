// Appends of the instant, counter and flow tables.
#include "model/event_tables.h"

namespace stepline {

InstantId InstantTable::Append(const Row& row) {
  const InstantId id = InstantId::FromIndex(ts_ns_.size());
  track_.push_back(row.track);
  ts_ns_.push_back(row.ts_ns);
  name_.push_back(row.name);
  category_.push_back(row.category);
  arg_set_.push_back(row.arg_set);
  return id;
}

void InstantTable::Reserve(size_t n) {
  track_.reserve(track_.size() + n);
  ts_ns_.reserve(ts_ns_.size() + n);
  name_.reserve(name_.size() + n);
  category_.reserve(category_.size() + n);
  arg_set_.reserve(arg_set_.size() + n);
}

std::vector<std::pair<const void*, size_t>> InstantTable::ReservedStorage() const {
  return {{track_.data(), track_.capacity() * sizeof(TrackId)},
          {ts_ns_.data(), ts_ns_.capacity() * sizeof(TimeNs)},
          {name_.data(), name_.capacity() * sizeof(StringId)},
          {category_.data(), category_.capacity() * sizeof(StringId)},
          {arg_set_.data(), arg_set_.capacity() * sizeof(ArgSetId)}};
}

size_t InstantTable::MemoryBytes() const {
  return track_.capacity() * sizeof(TrackId) + ts_ns_.capacity() * sizeof(TimeNs) +
         (name_.capacity() + category_.capacity()) * sizeof(StringId) + arg_set_.capacity() * sizeof(ArgSetId);
}

void CounterTable::Append(TrackId track, TimeNs ts_ns, double value) {
  track_.push_back(track);
  ts_ns_.push_back(ts_ns);
  value_.push_back(value);
}

size_t CounterTable::MemoryBytes() const {
  return track_.capacity() * sizeof(TrackId) + ts_ns_.capacity() * sizeof(TimeNs) + value_.capacity() * sizeof(double);
}

size_t FlowTable::MemoryBytes() const {
  return (from_.capacity() + to_.capacity()) * sizeof(SliceId) + kind_.capacity() +
         (name_.capacity() + category_.capacity()) * sizeof(StringId) + flow_id_.capacity() * sizeof(uint64_t) +
         pending_.capacity() * sizeof(Pending) + launch_links_.capacity() * sizeof(LaunchLink) +
         launch_flows_.capacity() * sizeof(LaunchFlow);
}

}  // namespace stepline
