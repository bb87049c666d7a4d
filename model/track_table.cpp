// ProcessTable and TrackTable appends.
#include "model/track_table.h"

namespace stepline {

ProcessId ProcessTable::Append(const Row& row) {
  const ProcessId id = ProcessId::FromIndex(pid_.size());
  pid_.push_back(row.pid);
  name_.push_back(row.name);
  sort_index_.push_back(row.sort_index);
  device_id_.push_back(row.device_id);
  return id;
}

size_t ProcessTable::MemoryBytes() const {
  return pid_.capacity() * sizeof(int64_t) + name_.capacity() * sizeof(StringId) +
         (sort_index_.capacity() + device_id_.capacity()) * sizeof(int32_t);
}

TrackId TrackTable::Append(const Row& row) {
  const TrackId id = TrackId::FromIndex(kind_.size());
  kind_.push_back(row.kind);
  process_.push_back(row.process);
  tid_.push_back(row.tid);
  name_.push_back(row.name);
  sort_index_.push_back(row.sort_index);
  device_id_.push_back(row.device_id);
  category_.push_back(row.category);
  ranges_.push_back(Ranges{});
  return id;
}

size_t TrackTable::MemoryBytes() const {
  return kind_.capacity() + process_.capacity() * sizeof(ProcessId) + tid_.capacity() * sizeof(int64_t) +
         (name_.capacity() + category_.capacity()) * sizeof(StringId) +
         (sort_index_.capacity() + device_id_.capacity()) * sizeof(int32_t) + ranges_.capacity() * sizeof(Ranges);
}

}  // namespace stepline
