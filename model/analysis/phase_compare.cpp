#include "model/analysis/phase_compare.h"

namespace stepline::analysis {
namespace {

const PhaseStat* FindPhase(const std::vector<PhaseStat>& phases, StepPhase phase) {
  for (const PhaseStat& p : phases) {
    if (p.phase == phase) return &p;
  }
  return nullptr;
}

}  // namespace

std::vector<PhaseCompareRow> ComparePhases(const std::vector<PhaseStat>& a, const std::vector<PhaseStat>& b) {
  std::vector<PhaseCompareRow> rows;
  for (int ph = 0; ph < kStepPhaseCount; ++ph) {
    const StepPhase phase = static_cast<StepPhase>(ph);
    const PhaseStat* pa = FindPhase(a, phase);
    const PhaseStat* pb = FindPhase(b, phase);
    if (pa == nullptr && pb == nullptr) continue;
    PhaseCompareRow row;
    row.phase = phase;
    if (pa != nullptr) {
      row.steps_a = pa->steps;
      row.step_mean_a_ns = pa->dur_ns / pa->steps;
      row.idle_mean_a_ns = pa->idle_ns / pa->steps;
      row.tokens_per_s_a = pa->tokens_per_s;
      row.mfu_percent_a = pa->mfu_percent;
    }
    if (pb != nullptr) {
      row.steps_b = pb->steps;
      row.step_mean_b_ns = pb->dur_ns / pb->steps;
      row.idle_mean_b_ns = pb->idle_ns / pb->steps;
      row.tokens_per_s_b = pb->tokens_per_s;
      row.mfu_percent_b = pb->mfu_percent;
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace stepline::analysis
