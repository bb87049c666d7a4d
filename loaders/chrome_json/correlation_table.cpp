// CorrelationTable implementation (see correlation_table.h).
#include "loaders/chrome_json/correlation_table.h"

namespace stepline::loaders {

size_t CorrelationTable::Insert(const Entry& e) {
  size_t probes = 1;
  size_t i = Home(e.track, e.correlation);
  while (slots_[i].slice_plus_one != 0) {
    if (slots_[i].track == e.track && slots_[i].correlation == e.correlation) return probes;  // first wins
    i = (i + 1) & mask_;
    ++probes;
  }
  slots_[i] = Slot{e.correlation, e.track, e.slice.value + 1};
  longest_probe_ = std::max(longest_probe_, probes);
  return probes;
}

SliceId CorrelationTable::Find(uint32_t track, uint64_t correlation) const {
  if (!dense_.empty()) {
    const uint64_t k = correlation - dense_low_;  // wraps past the end below the lowest id
    if (correlation < dense_low_ || k >= dense_.size() / 2) return SliceId::None();
    const DenseEntry* pair = &dense_[2 * k];
    if (pair[0].track == track && pair[0].slice_plus_one != 0) return SliceId(pair[0].slice_plus_one - 1);
    if (pair[1].track == track && pair[1].slice_plus_one != 0) return SliceId(pair[1].slice_plus_one - 1);
    // Only an id with both entries full has more, in the slots.
    if (pair[1].slice_plus_one == 0) return SliceId::None();
  }
  return FindInSlots(track, correlation);
}

SliceId CorrelationTable::FindInSlots(uint32_t track, uint64_t correlation) const {
  if (slots_.empty()) return SliceId::None();
  size_t i = Home(track, correlation);
  for (size_t probe = 0; probe < longest_probe_ && slots_[i].slice_plus_one != 0; ++probe, i = (i + 1) & mask_) {
    if (slots_[i].track == track && slots_[i].correlation == correlation) return SliceId(slots_[i].slice_plus_one - 1);
  }
  return SliceId::None();
}

}  // namespace stepline::loaders
