// DropPrompt drawing; see drop_prompt.h.
#include "ui/compare/drop_prompt.h"

#include <imgui.h>

#include <filesystem>

#include "ui/window_fit.h"

namespace stepline::ui {

namespace {
constexpr const char* kPopupName = "Dropped a trace";
}  // namespace

void DropPrompt::Ask(DropQuestion q, std::string dropped, std::string current) {
  question = q;
  path = std::move(dropped);
  current_title = std::move(current);
  open_requested_ = true;
}

DropChoice DropPrompt::Draw() {
  if (question == DropQuestion::kNone) return DropChoice::kNone;
  if (open_requested_) {
    ImGui::OpenPopup(kPopupName);
    open_requested_ = false;
  }
  DropChoice choice = DropChoice::kNone;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x / 2, vp->Pos.y + vp->Size.y / 3), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kPopupName, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    // Closed by other means (e.g. Esc): treat as Cancel.
    question = DropQuestion::kNone;
    return DropChoice::kCancel;
  }
  KeepWindowInsideViewport();
  // Only the file name: full paths make the dialog wider than the window.
  const std::string name = std::filesystem::path(path).filename().string();
  if (question == DropQuestion::kCompareWithCurrent) {
    ImGui::Text("Compare with the current trace?");
    ImGui::Spacing();
    ImGui::TextDisabled("A (baseline): %s", current_title.c_str());
    ImGui::TextDisabled("B (dropped):  %s", name.c_str());
    ImGui::Spacing();
    if (ImGui::Button("Compare")) choice = DropChoice::kCompare;
    ImGui::SameLine();
    if (ImGui::Button("Open instead")) choice = DropChoice::kOpenInstead;
  } else {
    ImGui::Text("Use %s for which run?", name.c_str());
    ImGui::Spacing();
    if (ImGui::Button("Replace A")) choice = DropChoice::kReplaceA;
    ImGui::SameLine();
    if (ImGui::Button("Replace B")) choice = DropChoice::kReplaceB;
    ImGui::SameLine();
    if (ImGui::Button("Open alone")) choice = DropChoice::kOpenInstead;
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)) {
    choice = DropChoice::kCancel;
  }
  if (choice != DropChoice::kNone) {
    question = DropQuestion::kNone;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return choice;
}

}  // namespace stepline::ui
