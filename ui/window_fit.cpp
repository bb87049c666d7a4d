// WindowFit: clamp the current window into the main viewport; see window_fit.h.
#include "ui/window_fit.h"

#include <imgui.h>

#include <algorithm>

namespace stepline::ui {

void KeepWindowInsideViewport(float margin) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const ImVec2 room(std::max(1.f, vp->Size.x - 2 * margin), std::max(1.f, vp->Size.y - 2 * margin));
  const ImVec2 fitted(std::min(size.x, room.x), std::min(size.y, room.y));
  if (fitted.x != size.x || fitted.y != size.y) ImGui::SetWindowSize(fitted);
  const ImVec2 lo(vp->Pos.x + margin, vp->Pos.y + margin);
  const ImVec2 hi(vp->Pos.x + vp->Size.x - margin - fitted.x, vp->Pos.y + vp->Size.y - margin - fitted.y);
  const ImVec2 moved(std::clamp(pos.x, lo.x, std::max(lo.x, hi.x)), std::clamp(pos.y, lo.y, std::max(lo.y, hi.y)));
  if (moved.x != pos.x || moved.y != pos.y) ImGui::SetWindowPos(moved);
}

}  // namespace stepline::ui
