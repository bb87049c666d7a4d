#include "model/analysis/serving_steps.h"

namespace stepline::analysis {
namespace {

bool IsTrainingSource(StepSource s) {
  switch (s) {
    case StepSource::kStepsRow:
    case StepSource::kProfilerStep:
    case StepSource::kStepMarkers:
    case StepSource::kNvtx:
    case StepSource::kRoctx:
    case StepSource::kXlaModule: return true;
    default: return false;
  }
}

}  // namespace

std::vector<Step> ServingMarkerSteps(const Trace& trace, ServingEngine* engine) {
  *engine = ServingEngine::kNone;
  // Parsed once per distinct name: 0 unknown, 1 not a serving name, 2 + engine.
  std::vector<uint8_t> kind(trace.strings().size(), 0);
  std::array<std::vector<uint32_t>, 3> by_engine;
  const SliceTable& s = trace.slices();
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      uint8_t& k = kind[s.name()[i].index()];
      if (k == 0) {
        const std::optional<ServingStepName> parsed = ParseServingStepName(trace.str(s.name()[i]));
        k = parsed ? static_cast<uint8_t>(2 + static_cast<int>(parsed->engine)) : 1;
      }
      if (k >= 2 && s.dur_ns()[i] > 0) by_engine[k - 2].push_back(i);
    }
  }
  const auto& sglang = by_engine[static_cast<int>(ServingEngine::kSglang)];
  const auto& vllm = by_engine[static_cast<int>(ServingEngine::kVllm)];
  if (sglang.empty() && vllm.empty()) return {};
  *engine = vllm.size() > sglang.size() ? ServingEngine::kVllm : ServingEngine::kSglang;
  std::vector<Step> steps;
  for (uint32_t i : *engine == ServingEngine::kVllm ? vllm : sglang) {
    steps.push_back(Step{std::string(trace.str(s.name()[i])), s.start_ns()[i], s.dur_ns()[i], SliceId(i)});
  }
  return steps;
}

void AssignStepPhases(StepSet* set) {
  set->engine = ServingEngine::kNone;
  const bool training = IsTrainingSource(set->source);
  for (Step& step : set->steps) {
    const std::optional<ServingStepName> parsed = ParseServingStepName(step.name);
    if (parsed) {
      step.phase = parsed->phase;
      step.batch = parsed->batch;
      step.tokens = parsed->tokens;
      if (set->engine == ServingEngine::kNone) set->engine = parsed->engine;
    } else {
      step.phase = training ? StepPhase::kTrain : StepPhase::kNone;
    }
  }
}

std::vector<PhaseStat> ComputePhaseStats(const StepSet& set, std::span<const StepBreakdown> breakdowns) {
  std::array<PhaseStat, kStepPhaseCount> all{};
  for (size_t i = 0; i < set.steps.size(); ++i) {
    const Step& step = set.steps[i];
    PhaseStat& p = all[static_cast<size_t>(step.phase)];
    ++p.steps;
    p.dur_ns += step.dur_ns;
    p.window_ns += step.window_dur_ns;
    if (i < breakdowns.size()) {
      for (int c = 0; c < kTimeCategoryCount; ++c) {
        p.breakdown[size_t(c)] += breakdowns[i].category_ns[size_t(c)];
        if (IsIdle(static_cast<TimeCategory>(c))) p.idle_ns += breakdowns[i].category_ns[size_t(c)];
      }
    }
    if (step.tokens >= 0) {
      p.tokens = (p.tokens < 0 ? 0 : p.tokens) + step.tokens;
      p.tokens_dur_ns += step.dur_ns;
    }
  }
  std::vector<PhaseStat> out;
  for (int ph = 0; ph < kStepPhaseCount; ++ph) {
    PhaseStat& p = all[size_t(ph)];
    if (p.steps == 0) continue;
    p.phase = static_cast<StepPhase>(ph);
    if (p.tokens >= 0 && p.tokens_dur_ns > 0) p.tokens_per_s = double(p.tokens) * 1e9 / double(p.tokens_dur_ns);
    out.push_back(p);
  }
  return out;
}

bool HasServingPhases(std::span<const PhaseStat> phases) {
  for (const PhaseStat& p : phases) {
    if (p.phase == StepPhase::kPrefill || p.phase == StepPhase::kDecode || p.phase == StepPhase::kMixed) return true;
  }
  return false;
}

}  // namespace stepline::analysis
