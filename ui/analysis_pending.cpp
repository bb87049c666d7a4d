// The "Analysing..." placeholder; see analysis_pending.h.
#include "ui/analysis_pending.h"

#include <imgui.h>

#include <cmath>

#include "ui/theme.h"

namespace stepline::ui {

void DrawAnalysisPending(const char* what) {
  // Three dots that cycle, so the panel visibly waits rather than looks empty.
  // ImGui's clock, not the wall clock: headless frames run on a fixed one.
  static constexpr const char* kDots[] = {".", "..", "..."};
  const int phase = static_cast<int>(std::fmod(ImGui::GetTime() * 3.0, 3.0));
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kCardValue), "Analysing the trace%s", kDots[phase % 3]);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s appear when the analysis is done; the timeline is ready now.", what);
  ImGui::PopStyleColor();
}

}  // namespace stepline::ui
