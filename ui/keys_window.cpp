// The keys window; see keys_window.h.
#include "ui/keys_window.h"

#include <imgui.h>

#include "ui/window_fit.h"

namespace stepline::ui {

void DrawKeysWindow(const char* title, bool* open, const std::vector<Shortcut>& shortcuts) {
  if (!*open) return;
  // Opaque: it floats over the views' text, and the two would blend.
  ImGui::SetNextWindowBgAlpha(1.f);
  if (ImGui::Begin(title, open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    KeepWindowInsideViewport();
    // Fixed-fit columns report their text width, which the auto-resizing
    // window needs: stretch columns would only share whatever width it has.
    if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const Shortcut& s : shortcuts) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(s.action);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

}  // namespace stepline::ui
