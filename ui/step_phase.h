// Phases on the step chart: a serving trace's bars carry a band in the
// colour of their steps' phase (prefill, decode, mixed; serving_steps.h),
// with a legend, so prefill and decode steps read apart at a glance.
#pragma once

#include <cstdint>
#include <span>

#include "model/analysis/report.h"

namespace stepline::ui {

// The phase of steps [first, end): theirs when all share one, else kMixed.
StepPhase BucketPhase(std::span<const analysis::ReportStep> steps, uint32_t first, uint32_t end);
uint32_t PhaseColor(StepPhase phase);
// The legend "prefill  decode  mixed" of the phases present, on one line.
void DrawPhaseLegend(std::span<const analysis::PhaseStat> phases);

}  // namespace stepline::ui
