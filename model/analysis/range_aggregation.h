// Range aggregation: what happened inside a selected time range, per slice
// name, like Perfetto's area selection. A slice counts if it intersects the
// range; its time is clipped to the range, self time likewise.
#pragma once

#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

struct RangeAggregateRow {
  StringId name;
  uint64_t count = 0;
  DurNs total_ns = 0;  // summed duration inside the range
  DurNs self_ns = 0;   // total minus direct children's time inside the range
  DurNs avg_ns() const { return count ? total_ns / static_cast<DurNs>(count) : 0; }
};

// Rows sorted by total_ns descending (ties by name id). Tracks in `only` if
// non-empty, else every track.
std::vector<RangeAggregateRow> AggregateSlicesInRange(const Trace& trace, TimeRange range,
                                                      const std::vector<TrackId>& only = {});

}  // namespace stepline::analysis
