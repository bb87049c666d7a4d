// GapIndex: every device's idle gaps in compact columns for the timeline's
// gap overlay, plus a range arg-max over their durations and prefix sums of
// them, so the overlay can fold any run of gaps into pixel items and name
// each item's idle time and longest gap without visiting the run. Built once
// per trace (in TimelineData, on the load thread), and again by the timeline
// when the Idle gaps filters change: about 25 bytes per gap plus the arg-max
// blocks and the sampled starts.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "model/analysis/time_category.h"
#include "ui/analysis_data.h"
#include "ui/timeline/range_arg_max.h"
#include "ui/timeline/sampled_search.h"

namespace stepline::ui {

// Positions below are into the index (0 .. size()), device by device, each
// device's gaps in start order (disjoint, so ends are in order too).
class GapIndex {
 public:
  GapIndex() = default;
  // The gaps of `analysis` at least min_gap_ns long (0: all of them) whose
  // cause has its bit set in cause_mask (bit per analysis::IdleCause).
  explicit GapIndex(const AnalysisData& analysis, DurNs min_gap_ns = 0, uint32_t cause_mask = kAllCauses);

  static constexpr uint32_t kAllCauses = (1u << analysis::kIdleCauseCount) - 1;

  size_t size() const { return start_ns_.size(); }
  size_t device_count() const { return device_ranges_.size(); }
  // [begin, end) positions of `device`'s gaps; empty for an unknown device.
  std::pair<uint32_t, uint32_t> DeviceRange(uint32_t device) const;
  // [begin, end) positions of `device`'s gaps overlapping `range`.
  std::pair<uint32_t, uint32_t> InRange(uint32_t device, TimeRange range) const;

  TimeNs start_ns(size_t pos) const { return start_ns_[pos]; }
  TimeNs end_ns(size_t pos) const { return start_ns_[pos] + dur_ns_[pos]; }
  analysis::IdleCause cause(size_t pos) const { return cause_[pos]; }
  // The gap's index into AnalysisData::gaps.
  uint32_t gap_id(size_t pos) const { return ids_.empty() ? static_cast<uint32_t>(pos) : ids_[pos]; }
  // The position of the longest gap in [begin, end) (begin < end), the
  // earliest on ties.
  uint32_t Longest(size_t begin, size_t end) const { return longest_.Query(dur_ns_, begin, end); }
  // Every kSampleStride-th start, for SampledPartition over positions (each
  // device's gaps are in start order, so within one device they are sorted).
  std::span<const TimeNs> start_samples() const { return start_samples_; }
  // Summed durations of the gaps at positions [begin, end).
  DurNs IdleNs(size_t begin, size_t end) const { return idle_before_[end] - idle_before_[begin]; }

  size_t MemoryBytes() const;

 private:
  std::vector<TimeNs> start_ns_;
  std::vector<DurNs> dur_ns_;
  std::vector<analysis::IdleCause> cause_;
  std::vector<uint32_t> ids_;  // gap id per position; empty when every gap is kept (id == position)
  std::vector<std::pair<uint32_t, uint32_t>> device_ranges_;
  std::vector<DurNs> idle_before_;  // size() + 1 prefix sums of dur_ns_ (across devices: take differences within one)
  RangeArgMax<DurNs> longest_;
  std::vector<TimeNs> start_samples_;
};

}  // namespace stepline::ui
