#include "ui/step_phase.h"

#include <imgui.h>

#include <string>

#include "ui/analysis_format.h"
#include "ui/theme.h"

namespace stepline::ui {

StepPhase BucketPhase(std::span<const analysis::ReportStep> steps, uint32_t first, uint32_t end) {
  if (first >= end || end > steps.size()) return StepPhase::kNone;
  const StepPhase phase = steps[first].phase;
  for (uint32_t i = first + 1; i < end; ++i) {
    if (steps[i].phase != phase) return StepPhase::kMixed;
  }
  return phase;
}

uint32_t PhaseColor(StepPhase phase) {
  switch (phase) {
    case StepPhase::kPrefill: return theme::Rgba(66, 165, 245);
    case StepPhase::kDecode: return theme::Rgba(255, 202, 40);
    case StepPhase::kMixed: return theme::Rgba(171, 71, 188);
    case StepPhase::kTrain: return theme::Rgba(120, 144, 156);
    case StepPhase::kNone: break;
  }
  return theme::Rgba(90, 90, 90);
}

void DrawPhaseLegend(std::span<const analysis::PhaseStat> phases) {
  ImGui::TextUnformatted("phase:");
  for (const analysis::PhaseStat& p : phases) {
    ImGui::SameLine();
    ColorSwatch(PhaseColor(p.phase));
    ImGui::SameLine(0, 2);
    ImGui::Text("%s (%u)", std::string(StepPhaseName(p.phase)).c_str(), p.steps);
  }
}

}  // namespace stepline::ui
