// Panel rectangles and the panel context menu; see panel_capture.h.
#include "ui/panel_capture.h"

#include <imgui.h>

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

}  // namespace stepline::ui
