// IdleGap: an interval where no kernel runs on any stream of a device, with
// the cause that the rules of docs/analysis.md assign it and the host events
// it blames.
// ComputeIdleGaps returns every gap of the device's GPU-active span (no
// minimum length: all idle time gets a cause) plus the "edge" idle inside
// steps before the first / after the last kernel.
#pragma once

#include <cstddef>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/analysis/idle_cause_table.h"
#include "model/analysis/step_set.h"
#include "model/analysis/time_category.h"

namespace stepline::analysis {

// A host event (or, for a copy-caused gap, a GPU copy) that explains a gap.
struct BlamedEvent {
  SliceId slice;
  DurNs overlap_ns = 0;                         // time of the window this event decided
  HostCategory category = HostCategory::kNone;  // kNone for copies
};

struct IdleGap {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  IdleCause cause = IdleCause::kOther;
  // false: idle inside a step before the device's first kernel or after its
  // last one. Such time is attributed (so step breakdowns sum up) but is not a
  // "gap" of the definition: not listed, not in DeviceReport::idle_ns.
  bool in_active_span = true;
  int32_t step = -1;                      // StepSet index overlapping the gap most; -1 none
  SliceId next_kernel;                    // the kernel ending the gap; None after the last kernel
  SliceId launch;                         // its launch call; None when the trace links none
  DurNs launch_delay_ns = -1;             // next_kernel start - launch start; -1 unknown
  std::vector<BlamedEvent> cause_events;  // largest overlap first, at most IdleGapOptions::max_cause_events
  DurNs dur_ns() const { return end_ns - start_ns; }
};

struct IdleGapOptions {
  // "A sync call ended within a few µs before the gap": how few.
  DurNs sync_proximity_ns = 5'000;
  // "Most of the gap" for the copy rule: covered share strictly above this.
  double copy_share = 0.5;
  size_t max_cause_events = 5;
};

// Gaps of one device, sorted by start, disjoint.
std::vector<IdleGap> ComputeIdleGaps(const Trace& trace, const DeviceActivity& device, const StepSet& steps,
                                     const IdleCauseTable& table, const LaunchIndex& launches,
                                     const IdleGapOptions& options = {});

}  // namespace stepline::analysis
