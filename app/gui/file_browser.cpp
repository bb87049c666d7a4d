// FileBrowser drawing and keyboard; see file_browser.h.
#include "app/gui/file_browser.h"

#include <imgui.h>
#include <imgui_internal.h>  // PushItemFlag(NoTabStop): Tab completes instead of leaving the field

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "ui/input/test_events.h"
#include "ui/theme.h"
#include "ui/window_fit.h"
#include "ui/ui_scale.h"

namespace stepline::app {
namespace fs = std::filesystem;

namespace {

std::string WithSlash(const std::string& dir) { return dir.empty() || dir.back() == '/' ? dir : dir + "/"; }

std::string Parent(const std::string& dir) {
  const fs::path p(dir);
  const std::string parent = p.parent_path().string();
  return parent.empty() ? "/" : parent;
}

bool KeyPressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

}  // namespace

void FileBrowser::Open(const std::string& start_dir, const std::string& title, std::vector<std::string> shortcuts) {
  title_ = title.empty() ? "Open trace" : title;
  popup_id_ = title_ + "###trace_file_browser";
  shortcuts_ = std::move(shortcuts);
  std::error_code ec;
  std::string dir = start_dir;
  if (dir.empty() || !fs::is_directory(dir, ec)) dir = fs::current_path(ec).string();
  open_requested_ = true;
  all_files_ = false;
  GoTo(dir);
  reported_rows_.clear();
  ui::TestEvent("dialog.show", "dir=" + listing_.dir);
}

void FileBrowser::GoTo(const std::string& dir) {
  listing_ = ListDirectory(dir);
  shown_ = FilterEntries(listing_.entries, "", all_files_);
  selected_ = shown_.empty() ? -1 : 0;
  scroll_to_selected_ = true;
  SetField(WithSlash(dir));
  field_follows_selection_ = false;
  focus_field_ = true;
}

void FileBrowser::SetField(const std::string& text) {
  field_text_ = text;
  pending_field_ = text;
  has_pending_field_ = true;
  std::strncpy(field_, text.c_str(), sizeof field_ - 1);
  field_[sizeof field_ - 1] = '\0';
}

void FileBrowser::OnFieldEdited() {
  field_text_ = field_;
  field_follows_selection_ = false;
  const TypedPath typed = SplitTypedPath(field_text_, listing_.dir);
  std::error_code ec;
  if (typed.dir != listing_.dir && fs::is_directory(typed.dir, ec)) listing_ = ListDirectory(typed.dir);
  shown_ = FilterEntries(listing_.entries, typed.dir == listing_.dir ? typed.prefix : "", all_files_);
  selected_ = shown_.empty() ? -1 : 0;
  scroll_to_selected_ = true;
}

void FileBrowser::MoveSelection(int delta) {
  if (shown_.empty()) return;
  selected_ = std::clamp(selected_ < 0 ? 0 : selected_ + delta, 0, static_cast<int>(shown_.size()) - 1);
  scroll_to_selected_ = true;
  const FileEntry& e = shown_[selected_];
  SetField((fs::path(listing_.dir) / e.name).string() + (e.is_dir ? "/" : ""));
  field_follows_selection_ = true;
}

bool FileBrowser::Activate(const std::string& path, std::string* picked) {
  const EnterAction action = ResolveEnter(path, listing_.dir);
  switch (action.kind) {
    case EnterAction::Kind::kOpenFolder:
      GoTo(action.path);
      ui::TestEvent("dialog.folder", "path=" + action.path);
      return false;
    case EnterAction::Kind::kPickFile: *picked = action.path; return true;
    case EnterAction::Kind::kNone: break;
  }
  // A name not (yet) complete: the highlighted row, or the only match.
  const int row = selected_ >= 0 ? selected_ : (shown_.size() == 1 ? 0 : -1);
  if (row < 0 || row >= static_cast<int>(shown_.size())) return false;
  return Activate((fs::path(listing_.dir) / shown_[row].name).string(), picked);
}

int FileBrowser::FieldCallback(ImGuiInputTextCallbackData* data) {
  auto* self = static_cast<FileBrowser*>(data->UserData);
  if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    // Tab: the completed path, the cursor at its end to type on.
    const std::string done = CompletePath(std::string(data->Buf, data->BufTextLen), self->listing_.dir, self->all_files_);
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, done.c_str());
    self->has_pending_field_ = false;
    return 0;
  }
  if (!self->has_pending_field_) return 0;
  self->has_pending_field_ = false;
  // A folder opened or a row picked: its path, all selected, so typing
  // starts afresh ("/" from the root, "~" from home, a name in the folder).
  if (self->pending_field_ != std::string_view(data->Buf, data->BufTextLen)) {
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, self->pending_field_.c_str());
  }
  data->SelectionStart = 0;
  data->SelectionEnd = data->CursorPos = data->BufTextLen;
  return 0;
}

bool FileBrowser::Draw(std::string* picked) {
  if (open_requested_) {
    ImGui::OpenPopup(popup_id_.c_str());
    open_requested_ = false;
  }
  const float scale = ui::UiScale();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Inside the window even when the window is small.
  const ImVec2 size(std::min(960.f * scale, vp->Size.x - 24.f), std::min(480.f * scale, vp->Size.y - 24.f));
  ImGui::SetNextWindowSize(size, ImGuiCond_Appearing);
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(1.f);  // opaque: the timeline's text must not show through the list
  if (popup_id_.empty() || !ImGui::BeginPopupModal(popup_id_.c_str(), nullptr)) {
    is_open_ = false;
    return false;
  }
  is_open_ = true;
  ui::KeepWindowInsideViewport();  // the main window may have shrunk under it
  bool chosen = false;

  // Keys the field does not use itself. Backspace means "parent folder" when
  // the field holds a folder path ("/a/b/") or names the highlighted row.
  const bool field_is_folder = !field_text_.empty() && field_text_.back() == '/';
  bool go_parent = false;
  if (KeyPressed(ImGuiKey_Backspace) && (field_is_folder || field_follows_selection_)) go_parent = true;
  if (KeyPressed(ImGuiKey_DownArrow)) MoveSelection(1);
  if (KeyPressed(ImGuiKey_UpArrow)) MoveSelection(-1);
  if (KeyPressed(ImGuiKey_PageDown)) MoveSelection(10);
  if (KeyPressed(ImGuiKey_PageUp)) MoveSelection(-10);
  if (go_parent) GoTo(Parent(listing_.dir));

  // The path field, and the file kind on its right.
  const float kind_w = 130.f * scale;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - kind_w - ImGui::GetStyle().ItemSpacing.x);
  if (focus_field_ || ImGui::IsWindowAppearing()) {
    ImGui::SetKeyboardFocusHere();
    focus_field_ = false;
  }
  // Tab completes; it must not also move the focus to the next widget.
  ImGui::PushItemFlag(ImGuiItemFlags_NoTabStop, true);
  const bool enter = ImGui::InputTextWithHint(
      "##path", "type a path: / or ~ to start, Tab completes", field_, sizeof field_,
      ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_AutoSelectAll | ImGuiInputTextFlags_CallbackCompletion |
          ImGuiInputTextFlags_CallbackAlways,
      FieldCallback, this);
  ImGui::PopItemFlag();
  if (field_text_ != field_) OnFieldEdited();
  ImGui::SameLine();
  ImGui::SetNextItemWidth(kind_w);
  const char* kinds[] = {"Trace files", "All files"};
  int kind = all_files_ ? 1 : 0;
  if (ImGui::Combo("##kind", &kind, kinds, 2)) {
    all_files_ = kind == 1;
    OnFieldEdited();
    focus_field_ = true;
  }
  if (enter) {
    chosen = Activate(field_text_, picked);
    focus_field_ = true;  // Enter leaves the field; typing goes on in it
  }
  if (!listing_.error.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui::theme::kErrorText), "%s", listing_.error.c_str());

  // Shortcuts on the left, the folder's entries on the right.
  const float footer = ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ItemSpacing.y;
  const float side_w = std::min(200.f * scale, ImGui::GetContentRegionAvail().x * 0.3f);
  ImGui::BeginChild("##places", ImVec2(side_w, -footer), true);
  ImGui::TextDisabled("Places");
  auto place = [&](const std::string& label, const std::string& dir) {
    if (ImGui::Selectable(label.c_str(), dir == listing_.dir)) GoTo(dir);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", dir.c_str());
  };
  if (const std::string home = ExpandHome("~"); home != "~") place("Home", home);
  std::error_code ec;
  place("Working folder", fs::current_path(ec).string());
  if (!shortcuts_.empty()) ImGui::TextDisabled("Recent folders");
  for (size_t i = 0; i < shortcuts_.size(); ++i) {
    const std::string name = fs::path(shortcuts_[i]).filename().string();
    place((name.empty() ? shortcuts_[i] : name) + "##recent" + std::to_string(i), shortcuts_[i]);
  }
  ImGui::EndChild();
  ImGui::SameLine();
  const ImGuiTableFlags table_flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter |
                                      ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("##entries", 3, table_flags, ImVec2(0, -footer))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed, 80.f * scale);
    ImGui::TableSetupColumn("Modified", ImGuiTableColumnFlags_WidthFixed, 120.f * scale);
    ImGui::TableHeadersRow();
    std::string activate;
    for (int i = 0; i < static_cast<int>(shown_.size()); ++i) {
      const FileEntry& e = shown_[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string label = (e.is_dir ? e.name + "/" : e.name) + "##row" + std::to_string(i);
      ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_SpanAllColumns);
      if (i == 0 && ui::TestEventsOn()) {
        // Where the rows are, for a scripted walk to click them: again
        // whenever that changes (the modal settles into place).
        const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
        const std::string where = "x=" + std::to_string(static_cast<int>((a.x + b.x) / 2)) +
                                  " y=" + std::to_string(static_cast<int>((a.y + b.y) / 2)) +
                                  " row_h=" + std::to_string(static_cast<int>(b.y - a.y)) + " first=" + e.name;
        if (where != reported_rows_) ui::TestEvent("dialog.rows", where);
        reported_rows_ = where;
      }
      if (selected_ == i && scroll_to_selected_) {
        ImGui::SetScrollHereY();
        scroll_to_selected_ = false;
      }
      // A double-click: the second press on the row the first one chose.
      // The count is the window's, from the clicks' own times
      // (key_event_queue.h): frame times would let a slow frame split or
      // merge the pair.
      if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) {
        if (last_click_row_ == i && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
          activate = (fs::path(listing_.dir) / e.name).string();
          last_click_row_ = -1;
          ui::TestEvent("dialog.open", "path=" + activate);
        } else {
          selected_ = i;
          SetField((fs::path(listing_.dir) / e.name).string() + (e.is_dir ? "/" : ""));
          field_follows_selection_ = true;
          last_click_row_ = i;
        }
        focus_field_ = true;
      }
      ImGui::TableNextColumn();
      if (!e.is_dir) ImGui::TextUnformatted(FormatFileSize(e.size).c_str());
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", FormatFileTime(e.mtime_s).c_str());
    }
    ImGui::EndTable();
    if (!activate.empty()) chosen = Activate(activate, picked);
  }

  // Buttons on the right of the footer, the count on the left.
  ImGui::TextDisabled("%zu of %zu shown", shown_.size(), listing_.entries.size());
  const float buttons_w = ImGui::CalcTextSize("Open").x + ImGui::CalcTextSize("Cancel").x +
                          4 * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::SameLine(std::max(0.f, ImGui::GetWindowContentRegionMax().x - buttons_w));
  if (ImGui::Button("Open") && !chosen) chosen = Activate(field_text_, picked);
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel") || KeyPressed(ImGuiKey_Escape);
  if (cancel && !chosen) ui::TestEvent("popup.close", "kind=dialog");
  if (cancel || chosen) {
    ImGui::CloseCurrentPopup();
    is_open_ = false;
  }
  ImGui::EndPopup();
  return chosen;
}

}  // namespace stepline::app
