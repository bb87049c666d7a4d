// Toast drawing; see toast.h.
#include "ui/toast.h"

#include <imgui.h>

#include <algorithm>

#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

float ToastAlpha(double age_s) {
  if (age_s < 0) return 1.f;
  if (age_s <= kToastHoldS) return 1.f;
  return static_cast<float>(std::clamp(1.0 - (age_s - kToastHoldS) / kToastFadeS, 0.0, 1.0));
}

void Toast::Draw(const std::string& notice, bool hidden) {
  const double now = ImGui::GetTime();
  if (notice != shown_) {
    shown_ = notice;
    since_s_ = now;
  }
  const float alpha = shown_.empty() ? 0.f : ToastAlpha(now - since_s_);
  visible_ = alpha > 0;
  if (!visible_ || hidden) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float s = UiScale();
  const float pad = theme::kToastPadding * s;
  const float wrap = std::min(vp->Size.x * 0.6f, 900.f * s);
  const ImVec2 text = ImGui::CalcTextSize(shown_.c_str(), nullptr, false, wrap);
  const ImVec2 max(vp->Pos.x + vp->Size.x - theme::kToastMargin * s, vp->Pos.y + vp->Size.y - theme::kToastMargin * s);
  const ImVec2 min(max.x - text.x - 2 * pad, max.y - text.y - 2 * pad);
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  auto faded = [alpha](uint32_t c) {
    const uint32_t a = static_cast<uint32_t>(static_cast<float>(c >> 24) * alpha);
    return (c & 0x00ffffffu) | a << 24;
  };
  dl->AddRectFilled(min, max, faded(theme::kToastBackground), 6.f * s);
  dl->AddRect(min, max, faded(theme::kToastBorder), 6.f * s);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(min.x + pad, min.y + pad), faded(theme::kToastText),
              shown_.c_str(), nullptr, wrap);
}

}  // namespace stepline::ui
