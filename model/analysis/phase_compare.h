// Two serving runs compared phase with phase: a prefill step is compared
// with prefill steps, a decode step with decode steps (comparing step means
// across phases would weigh a 100 ms prefill against a 5 ms decode).
#pragma once

#include <vector>

#include "model/analysis/serving_steps.h"

namespace stepline::analysis {

struct PhaseCompareRow {
  StepPhase phase = StepPhase::kNone;
  uint32_t steps_a = 0, steps_b = 0;
  DurNs step_mean_a_ns = 0, step_mean_b_ns = 0;  // 0 without steps of the phase
  DurNs idle_mean_a_ns = 0, idle_mean_b_ns = 0;  // primary device idle per step
  double tokens_per_s_a = -1, tokens_per_s_b = -1;  // -1 unknown
  double mfu_percent_a = -1, mfu_percent_b = -1;    // -1 unknown
};

// One row per phase either run has, in StepPhase order.
std::vector<PhaseCompareRow> ComparePhases(const std::vector<PhaseStat>& a, const std::vector<PhaseStat>& b);

}  // namespace stepline::analysis
