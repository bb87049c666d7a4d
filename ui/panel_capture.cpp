// Panel rectangles and the panel context menu; see panel_capture.h.
#include "ui/panel_capture.h"

#include <imgui.h>

#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

PanelShot CurrentWindowShot(const char* stem) {
  const ImVec2 p = ImGui::GetWindowPos();
  const ImVec2 s = ImGui::GetWindowSize();
  return PanelShot{stem, p.x, p.y, p.x + s.x, p.y + s.y};
}

bool BeginPanelMenu(const char* id) {
  // BeginPopupContextWindow ignores child windows, and tables with a scroll
  // area are child windows: test the hover ourselves.
  const bool any_popup = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
  if (!any_popup && ImGui::IsMouseReleased(ImGuiMouseButton_Right) &&
      ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows)) {
    ImGui::OpenPopup(id);
  }
  return ImGui::BeginPopup(id);
}

PanelShot DrawCaptionStrip(const std::string& text) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = CaptionHeight();
  ImGui::Dummy(ImVec2(w, h));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), theme::kCaptionBackground);
  const float pad = theme::kCaptionPadding * UiScale();
  const ImVec4 clip(p.x, p.y, p.x + w - pad, p.y + h);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + pad * 2, p.y + pad), theme::kCaptionText,
              text.c_str(), nullptr, 0.f, &clip);
  return PanelShot{"caption", p.x, p.y, p.x + w, p.y + h};
}

}  // namespace stepline::ui
