// StepBreakdown: where one step's wall time went on one device. Every instant
// of the step goes to exactly one TimeCategory (priority compute > collective
// > memcpy_h2d > memcpy_d2h > memcpy_other > memset > idle by gap cause), so
// the categories sum exactly to the step's duration.
#pragma once

#include <vector>

#include "model/analysis/device_activity.h"
#include "model/analysis/idle_gap.h"
#include "model/analysis/step_set.h"
#include "model/analysis/time_category.h"

namespace stepline::analysis {

struct StepBreakdown {
  CategoryNs category_ns{};  // sums to the step's window_dur_ns (its dur_ns unless the next step overlaps it)
  // The step's time with no kernel running, by the cause of the gap it falls
  // in (copy time inside a copy-caused gap counts here too). Sums to
  // dur_ns - (compute + collective).
  CauseNs idle_by_cause{};
};

// One breakdown per step of `steps`, same order. `gaps` must be
// ComputeIdleGaps(..., device, steps, ...).
std::vector<StepBreakdown> ComputeStepBreakdowns(const DeviceActivity& device, const StepSet& steps,
                                                 const std::vector<IdleGap>& gaps);

}  // namespace stepline::analysis
