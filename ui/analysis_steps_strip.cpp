// Steps strip drawing and tooltip; see analysis_steps_strip.h.
#include "ui/analysis_steps_strip.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <numeric>

#include "ui/analysis_format.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

int DrawStepsStrip(const ViewState& state, ImDrawList* dl, float x0, float y0, float x1, float y1, float label_w,
                   bool mouse_in_strip, float mouse_x) {
  const auto& steps = state.data->analysis.report.steps;
  const Viewport& vp = state.viewport;
  dl->AddRectFilled(ImVec2(x0 - label_w, y0), ImVec2(x1, y1), theme::kRulerBackground);
  dl->AddText(ImVec2(x0 - label_w + 6, y0 + (y1 - y0 - ImGui::GetFontSize()) / 2), theme::kTrackText, "Steps");
  auto first = std::partition_point(steps.begin(), steps.end(), [&](const analysis::ReportStep& s) {
    return s.start_ns + s.dur_ns <= vp.visible.start_ns;
  });
  int hovered = -1;
  float last_x1 = -1e9f;
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
  for (auto it = first; it != steps.end() && it->start_ns < vp.visible.end_ns; ++it) {
    const int index = static_cast<int>(it - steps.begin());
    const float a = x0 + static_cast<float>(vp.TimeToX(it->start_ns));
    const float b = std::max(a + 1, x0 + static_cast<float>(vp.TimeToX(it->start_ns + it->dur_ns)));
    if (mouse_in_strip && mouse_x >= a && mouse_x < b) hovered = index;
    if (b <= last_x1) continue;  // sub-pixel steps: one rectangle per pixel column is enough
    last_x1 = b;
    const uint32_t fill = index == state.links.focused_step ? theme::kStepFocused
                          : index % 2                       ? theme::kStepFillAlt
                                                            : theme::kStepFill;
    dl->AddRectFilled(ImVec2(a, y0 + 1), ImVec2(b - (b - a > 3 ? 1.f : 0.f), y1 - 1), fill);
    if (b - a >= theme::kMinLabelPx) {
      const ImVec4 clip(std::max(a, x0) + 2, y0, std::min(b, x1) - 2, y1);
      dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(std::max(a, x0) + 3, y0 + 1), theme::kGroupHeaderText,
                  it->name.c_str(), nullptr, 0.f, &clip);
    }
  }
  dl->PopClipRect();
  return hovered;
}

void StepTooltip(const ViewState& state, int index) {
  const analysis::ReportStep& s = state.data->analysis.report.steps[index];
  ImGui::Text("%s: %s", s.name.c_str(), FormatDuration(s.dur_ns).c_str());
  // The three largest categories, enough to say "mostly waiting for input".
  std::array<int, analysis::kTimeCategoryCount> order;
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return s.breakdown[a] > s.breakdown[b]; });
  for (int k = 0; k < 3 && s.breakdown[order[k]] > 0; ++k) {
    ColorSwatch(theme::kCategoryColors[order[k]]);
    ImGui::Text("%s %s (%s)", CategoryLabel(static_cast<analysis::TimeCategory>(order[k])),
                FormatDuration(s.breakdown[order[k]]).c_str(),
                Percent(static_cast<double>(s.breakdown[order[k]]), static_cast<double>(s.dur_ns)).c_str());
  }
  ImGui::TextDisabled("Click to fit this step");
}

}  // namespace stepline::ui
