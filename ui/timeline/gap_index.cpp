// GapIndex construction and range lookup; see gap_index.h.
#include "ui/timeline/gap_index.h"

#include <algorithm>

namespace stepline::ui {

GapIndex::GapIndex(const AnalysisData& analysis, DurNs min_gap_ns, uint32_t cause_mask) {
  const bool keep_all = min_gap_ns <= 0 && (cause_mask & kAllCauses) == kAllCauses;
  for (const analysis::DeviceAnalysis& device : analysis.devices) {
    const uint32_t begin = device.gaps_begin, end = device.gaps_end;
    const auto first = static_cast<uint32_t>(start_ns_.size());
    for (uint32_t id = begin; id < end; ++id) {
      const analysis::IdleGap& g = analysis.gaps[id];
      if (g.dur_ns() < min_gap_ns || !(cause_mask >> static_cast<unsigned>(g.cause) & 1u)) continue;
      start_ns_.push_back(g.start_ns);
      dur_ns_.push_back(g.dur_ns());
      cause_.push_back(g.cause);
      ids_.push_back(id);
    }
    device_ranges_.emplace_back(first, static_cast<uint32_t>(start_ns_.size()));
  }
  // With every gap kept and devices stored back to back, position == gap id.
  bool identity = keep_all;
  for (size_t i = 0; identity && i < ids_.size(); ++i) identity = ids_[i] == i;
  if (identity) {
    ids_.clear();
    ids_.shrink_to_fit();
  }
  idle_before_.reserve(dur_ns_.size() + 1);
  idle_before_.push_back(0);
  for (DurNs d : dur_ns_) idle_before_.push_back(idle_before_.back() + d);
  longest_ = RangeArgMax<DurNs>(dur_ns_);
  start_samples_ = SampleKeys(start_ns_.size(), [&](size_t pos) { return start_ns_[pos]; });
}

std::pair<uint32_t, uint32_t> GapIndex::DeviceRange(uint32_t device) const {
  return device < device_ranges_.size() ? device_ranges_[device] : std::pair<uint32_t, uint32_t>{0, 0};
}

std::pair<uint32_t, uint32_t> GapIndex::InRange(uint32_t device, TimeRange range) const {
  const auto [begin, end] = DeviceRange(device);
  uint32_t lo = begin, hi = end;
  while (lo < hi) {  // first gap ending after range.start_ns
    const uint32_t mid = lo + (hi - lo) / 2;
    if (end_ns(mid) <= range.start_ns) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const auto starts = std::span<const TimeNs>(start_ns_).subspan(lo, end - lo);
  const auto last = std::partition_point(starts.begin(), starts.end(), [&](TimeNs s) { return s < range.end_ns; });
  return {lo, lo + static_cast<uint32_t>(last - starts.begin())};
}

size_t GapIndex::MemoryBytes() const {
  return start_ns_.capacity() * sizeof(TimeNs) + dur_ns_.capacity() * sizeof(DurNs) +
         cause_.capacity() * sizeof(analysis::IdleCause) + ids_.capacity() * sizeof(uint32_t) +
         device_ranges_.capacity() * sizeof(device_ranges_[0]) + idle_before_.capacity() * sizeof(DurNs) +
         longest_.MemoryBytes() + start_samples_.capacity() * sizeof(TimeNs);
}

}  // namespace stepline::ui
