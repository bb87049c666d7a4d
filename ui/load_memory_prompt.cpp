// LoadMemoryPrompt drawing; see load_memory_prompt.h.
#include "ui/load_memory_prompt.h"

#include <imgui.h>

#include "ui/window_fit.h"

namespace stepline::ui {

namespace {
constexpr const char* kLoadMemoryPopup = "Not enough memory?";
}  // namespace

void LoadMemoryPrompt::Ask(std::string text) {
  warning = std::move(text);
  open_requested_ = true;
}

LoadMemoryChoice LoadMemoryPrompt::Draw() {
  if (warning.empty()) return LoadMemoryChoice::kNone;
  if (open_requested_) {
    ImGui::OpenPopup(kLoadMemoryPopup);
    open_requested_ = false;
  }
  LoadMemoryChoice choice = LoadMemoryChoice::kNone;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x / 2, vp->Pos.y + vp->Size.y / 3), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  // Wrapped at half the window: the warning names a path and two sizes.
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->Size.x * 0.9f, vp->Size.y * 0.9f));
  if (!ImGui::BeginPopupModal(kLoadMemoryPopup, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    warning.clear();  // closed by other means: as Cancel
    return LoadMemoryChoice::kCancel;
  }
  KeepWindowInsideViewport();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + vp->Size.x * 0.5f);
  ImGui::TextUnformatted("This load may not fit in the memory available.");
  ImGui::Spacing();
  ImGui::TextDisabled("%s", warning.c_str());
  ImGui::TextDisabled("If it runs out, the load fails with a message; what is shown stays.");
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  if (ImGui::Button("Load anyway")) choice = LoadMemoryChoice::kLoadAnyway;
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    choice = LoadMemoryChoice::kCancel;
  }
  if (choice != LoadMemoryChoice::kNone) {
    warning.clear();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return choice;
}

}  // namespace stepline::ui
