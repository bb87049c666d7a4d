// Serving steps: the scheduler iterations of an inference engine (SGLang,
// vLLM) as steps, each labelled with its phase (prefill, decode, mixed) and
// the batch and token counts its name gives (model/serving_step_name.h), and
// the per-phase figures a serving trace is read by: time, idle, tokens per
// second.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "model/analysis/step_breakdown.h"
#include "model/analysis/step_set.h"

namespace stepline::analysis {

// Host slices named like a serving engine's step, of the engine with more of
// them (SGLang on a tie: its step[...] sits inside vLLM-style execute_ ranges
// in traces that hold both). Sets *engine; empty when there are none.
std::vector<Step> ServingMarkerSteps(const Trace& trace, ServingEngine* engine);

// Labels every step of `set`: a serving name gives phase, batch and tokens
// (and set->engine); otherwise a step of a training-loop source (Steps row,
// ProfilerStep#, step markers, NVTX/roctx ranges, XLA modules) is kTrain and
// one of --steps or the device-active span stays kNone.
void AssignStepPhases(StepSet* set);

// One phase's steps summed. Steps of a cut file's tail are included: the
// figures are sums, not per-step comparisons.
struct PhaseStat {
  StepPhase phase = StepPhase::kNone;
  uint32_t steps = 0;
  DurNs dur_ns = 0;         // summed recorded step durations (what tokens_per_s divides by)
  DurNs window_ns = 0;      // summed windows (what the breakdown sums to)
  CategoryNs breakdown{};   // primary device, summed over the phase's steps
  DurNs idle_ns = 0;        // the idle categories of `breakdown`
  int64_t tokens = -1;      // summed over steps that name their tokens; -1 none does
  DurNs tokens_dur_ns = 0;  // summed durations of those steps
  double tokens_per_s = -1; // tokens / tokens_dur_ns; -1 unknown
  // Model FLOPs utilisation of the phase's steps, percent; -1 = not computed.
  // Filled by ComputeAnalysis from the efficiency analysis (it owns the FLOP counts).
  double mfu_percent = -1;
};

// One entry per phase that has steps, in StepPhase order. `breakdowns`: the
// primary device's, one per step (empty without a device: breakdown stays 0).
std::vector<PhaseStat> ComputePhaseStats(const StepSet& set, std::span<const StepBreakdown> breakdowns);

// True when some step is prefill, decode or mixed (a serving trace).
bool HasServingPhases(std::span<const PhaseStat> phases);

}  // namespace stepline::analysis
