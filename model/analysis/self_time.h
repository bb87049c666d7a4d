// Self time, one definition for op stats, the details panel and range
// aggregation: a slice's duration minus the time of its direct children on the
// same track, each child's time clipped to the parent (and, for a range, to
// the range); never below 0.
#pragma once

#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

// The time a child takes off its parent: its part of [window] (the parent's
// span, or that intersected with a selected range).
inline DurNs ChildTimeNs(TimeNs child_start_ns, DurNs child_dur_ns, TimeRange window) {
  return window.OverlapNs({child_start_ns, child_start_ns + child_dur_ns});
}

// Self time of every slice, in one pass over the table.
std::vector<DurNs> SelfTimes(const Trace& trace);
// Self time of one slice; visits only its descendants (they follow it in
// table order), so a caller should keep the answer while the selection holds.
DurNs SliceSelfNs(const Trace& trace, SliceId slice);

}  // namespace stepline::analysis
