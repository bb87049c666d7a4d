// Time types of the model. All model time is int64 nanoseconds; loaders convert
// their units (JSON microseconds, XSpace picoseconds) at the edge.
#pragma once

#include <algorithm>
#include <cstdint>

namespace stepline {

using TimeNs = int64_t;  // a point in time, ns since the trace's clock origin
using DurNs = int64_t;   // a duration, ns, >= 0 in a finalized trace

// Half-open interval [start_ns, end_ns).
struct TimeRange {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;

  DurNs duration_ns() const { return end_ns - start_ns; }
  bool empty() const { return end_ns <= start_ns; }
  bool Contains(TimeNs t) const { return t >= start_ns && t < end_ns; }
  DurNs OverlapNs(TimeRange other) const {
    return std::max<DurNs>(0, std::min(end_ns, other.end_ns) - std::max(start_ns, other.start_ns));
  }
  bool operator==(const TimeRange&) const = default;
};

}  // namespace stepline
