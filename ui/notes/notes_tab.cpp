// NotesTab drawing; see notes_tab.h.
#include "ui/notes/notes_tab.h"

#include <imgui.h>

#include <cstring>

#include "ui/notes/note_actions.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {
namespace {

std::string NotePlace(const Note& n, TimeNs origin) {
  if (n.is_flag) return "flag at " + FormatDuration(n.start_ns - origin);
  return FormatDuration(n.start_ns - origin) + " - " + FormatDuration(n.end_ns - origin) + " (" +
         FormatDuration(n.end_ns - n.start_ns) + ")";
}

}  // namespace

NotesTabRequests NotesTab::Draw(ViewState& state) {
  NotesTabRequests req;
  if (ImGui::SmallButton("Export notes...")) req.export_notes = true;
  ImGui::SameLine();
  if (ImGui::SmallButton("Import notes...")) req.import_notes = true;
  ImGui::SameLine();
  ImGui::TextDisabled("M marks the selected slice or range, Shift+M drops a flag at the mouse");
  NoteSet& notes = state.notes;
  if (notes.items.empty()) {
    ImGui::TextDisabled("No notes on this trace yet.");
    return req;
  }
  const TimeNs origin = state.trace() ? state.trace()->span().start_ns : 0;
  size_t jump = SIZE_MAX, erase = SIZE_MAX;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##notes", 4, flags)) {
    ImGui::TableSetupColumn("Colour", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Note", ImGuiTableColumnFlags_WidthStretch, 3.f);
    ImGui::TableSetupColumn("Where", ImGuiTableColumnFlags_WidthStretch, 2.f);
    ImGui::TableSetupColumn("##actions", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < notes.items.size(); ++i) {
      Note& n = notes.items[i];
      ImGui::PushID(static_cast<int>(i));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImVec4 c = ImGui::ColorConvertU32ToFloat4(n.color);
      if (ImGui::ColorEdit3("##colour", &c.x, ImGuiColorEditFlags_NoInputs | ImGuiColorEditFlags_NoLabel)) {
        c.w = 1.f;
        n.color = ImGui::ColorConvertFloat4ToU32(c);
        ++notes.revision;
      }
      ImGui::TableNextColumn();
      // ImGui edits its own copy while the field is active; the note takes
      // each change.
      char buf[512];
      std::strncpy(buf, n.text.c_str(), sizeof buf - 1);
      buf[sizeof buf - 1] = '\0';
      ImGui::SetNextItemWidth(-1);
      if (ImGui::InputText("##text", buf, sizeof buf)) {
        n.text = buf;
        ++notes.revision;
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(NotePlace(n, origin).c_str());
      ImGui::TableNextColumn();
      if (ImGui::SmallButton("Jump")) jump = i;
      ImGui::SameLine();
      if (ImGui::SmallButton("Delete")) erase = i;
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (jump != SIZE_MAX) JumpToNote(state, jump);
  if (erase != SIZE_MAX) DeleteNote(state, erase);
  return req;
}

}  // namespace stepline::ui
