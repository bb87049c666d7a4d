// Wrapped tooltips (tooltip.h).
#include "ui/tooltip.h"

#include <algorithm>
#include <cstdarg>

namespace stepline::ui {

float TooltipWrapWidth() {
  const float window_w = ImGui::GetMainViewport()->Size.x;
  return std::max(120.f, std::min(ImGui::GetFontSize() * 36.f, window_w * 0.6f));
}

void BeginWrappedTooltip() {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(TooltipWrapWidth());
}

void EndWrappedTooltip() {
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void WrappedTooltip(const char* fmt, ...) {
  BeginWrappedTooltip();
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
  EndWrappedTooltip();
}

}  // namespace stepline::ui
