// FileBrowser drawing and directory listing.
#include "app/gui/file_browser.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

namespace stepline::app {
namespace fs = std::filesystem;

void FileBrowser::Open(const std::string& start_dir, const std::string& title) {
  title_ = title.empty() ? "Open trace" : title;
  popup_id_ = title_ + "###trace_file_browser";
  std::error_code ec;
  dir_ = start_dir.empty() ? fs::current_path(ec).string() : start_dir;
  open_requested_ = true;
  List();
}

void FileBrowser::List() {
  entries_.clear();
  error_.clear();
  selected_ = -1;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    std::error_code e2;
    const bool is_dir = it->is_directory(e2);
    entries_.push_back({name, is_dir, is_dir ? 0 : it->file_size(e2)});
  }
  if (ec) error_ = dir_ + ": " + ec.message();
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
    return a.is_dir != b.is_dir ? a.is_dir : a.name < b.name;
  });
}

bool FileBrowser::Draw(std::string* picked) {
  if (open_requested_) {
    ImGui::OpenPopup(popup_id_.c_str());
    open_requested_ = false;
  }
  bool chosen = false;
  ImGui::SetNextWindowSize(ImVec2(640, 440), ImGuiCond_Appearing);
  if (popup_id_.empty() || !ImGui::BeginPopupModal(popup_id_.c_str(), nullptr)) return false;
  ImGui::TextUnformatted(dir_.c_str());
  if (ImGui::Button("Up")) {
    dir_ = fs::path(dir_).parent_path().string();
    List();
  }
  if (!error_.empty()) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", error_.c_str());
  ImGui::BeginChild("##entries", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), true);
  for (int i = 0; i < static_cast<int>(entries_.size()); ++i) {
    const Entry& e = entries_[i];
    const std::string label = (e.is_dir ? "[dir] " : "") + e.name;
    if (ImGui::Selectable(label.c_str(), selected_ == i, ImGuiSelectableFlags_AllowDoubleClick)) {
      selected_ = i;
      if (ImGui::IsMouseDoubleClicked(0)) {
        const std::string path = (fs::path(dir_) / e.name).string();
        if (e.is_dir) {
          dir_ = path;
          List();
          break;
        }
        *picked = path;
        chosen = true;
      }
    }
  }
  ImGui::EndChild();
  const bool can_open = selected_ >= 0 && selected_ < static_cast<int>(entries_.size()) && !entries_[selected_].is_dir;
  if (ImGui::Button("Open") && can_open) {
    *picked = (fs::path(dir_) / entries_[selected_].name).string();
    chosen = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || chosen) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace stepline::app
