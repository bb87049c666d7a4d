// RunPicker rows and drawing; see run_picker.h.
#include "app/gui/run_picker.h"

#include <imgui.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "app/output/text_format.h"

namespace stepline::app {
namespace fs = std::filesystem;
namespace {

std::string LocalDate(int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm local{};
  if (localtime_r(&t, &local) == nullptr) return "?";
  char text[32];
  return std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local) ? text : "?";
}

}  // namespace

std::vector<RunPickerRow> RunPickerRows(const std::vector<ProfileRun>& runs) {
  std::vector<RunPickerRow> rows;
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t t = 0; t < runs[r].traces.size(); ++t) {
      const RunTrace& trace = runs[r].traces[t];
      RunPickerRow row;
      if (t == 0) row.run = runs[r].name;
      row.date = LocalDate(trace.mtime_s);
      row.host = trace.host;
      row.size = FormatBytes(trace.bytes);
      row.path = trace.path;
      row.run_dir = runs[r].dir;
      row.run_traces = runs[r].traces.size();
      row.newest = r == 0;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<ui::RanksRunChoice> RanksRunChoices(const std::vector<ProfileRun>& runs, size_t current) {
  std::vector<ui::RanksRunChoice> out;
  if (runs.size() < 2) return out;
  for (size_t r = 0; r < runs.size(); ++r) {
    ui::RanksRunChoice c;
    c.run = runs[r].name;
    c.dir = runs[r].dir;
    c.date = LocalDate(runs[r].mtime_s);
    c.size = FormatBytes(runs[r].bytes());
    c.hosts = runs[r].traces.size();
    c.current = r == current;
    out.push_back(std::move(c));
  }
  return out;
}

void RunPicker::Open(const std::string& folder) {
  std::error_code ec;
  folder_ = folder.empty() ? fs::current_path(ec).string() : folder;
  open_requested_ = true;
  Scan();
}

void RunPicker::Scan() {
  subfolders_.clear();
  rows_.clear();
  error_.clear();
  selected_ = -1;
  std::error_code ec;
  for (fs::directory_iterator it(folder_, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code e2;
    if (!name.empty() && name[0] != '.' && it->is_directory(e2)) subfolders_.push_back(name);
  }
  std::sort(subfolders_.begin(), subfolders_.end());
  auto runs = FindProfileRuns(folder_);
  if (runs) {
    rows_ = RunPickerRows(*runs);
  } else {
    error_ = runs.error();
  }
}

bool RunPicker::Draw(Choice* picked) {
  static constexpr const char* kPopupId = "Open folder###profile_run_picker";
  if (open_requested_) {
    ImGui::OpenPopup(kPopupId);
    open_requested_ = false;
  }
  ImGui::SetNextWindowSize(ImVec2(860, 480), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(kPopupId, nullptr)) return false;
  bool chosen = false;
  ImGui::TextUnformatted(folder_.c_str());
  if (ImGui::Button("Up")) {
    folder_ = fs::path(folder_).parent_path().string();
    Scan();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("a TensorBoard / XProf log directory: its plugins/profile/<run>/ folders are listed");
  const float list_height = -ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("##folders", ImVec2(220, list_height), true);
  for (const std::string& name : subfolders_) {
    if (ImGui::Selectable(name.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick) && ImGui::IsMouseDoubleClicked(0)) {
      folder_ = (fs::path(folder_) / name).string();
      Scan();
      break;
    }
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##runs", ImVec2(0, list_height), true);
  if (!error_.empty()) ImGui::TextWrapped("%s", error_.c_str());
  if (!rows_.empty() && ImGui::BeginTable("##run_table", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_Resizable)) {
    // Wide enough for an XProf run name and the newest mark; hosts take the rest.
    const float run_width = ImGui::CalcTextSize("2024_05_01_12_30_00  (newest)").x;
    ImGui::TableSetupColumn("Run", ImGuiTableColumnFlags_WidthFixed, run_width);
    ImGui::TableSetupColumn("Host");
    ImGui::TableSetupColumn("Date");
    ImGui::TableSetupColumn("Size");
    ImGui::TableHeadersRow();
    for (int i = 0; i < static_cast<int>(rows_.size()); ++i) {
      const RunPickerRow& row = rows_[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const std::string run = row.run.empty() ? "" : row.run + (row.newest ? "  (newest)" : "");
      const ImGuiSelectableFlags flags = ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick;
      if (ImGui::Selectable(run.c_str(), selected_ == i, flags)) {
        selected_ = i;
        if (ImGui::IsMouseDoubleClicked(0)) chosen = true;
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.host.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.date.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.size.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
  const bool can_open = selected_ >= 0 && selected_ < static_cast<int>(rows_.size());
  // A run of several ranks opens side by side (the ranks view); one rank alone on request.
  bool one_rank = false;
  if (ImGui::Button("Open newest") && !rows_.empty()) {
    selected_ = 0;
    chosen = true;
  }
  ImGui::SameLine();
  const bool many = can_open && rows_[selected_].run_traces >= 2;
  if (ImGui::Button(many ? "Open selected run (ranks view)" : "Open selected") && can_open) chosen = true;
  ImGui::SameLine();
  ImGui::BeginDisabled(!many);
  if (ImGui::Button("Open this rank only")) chosen = one_rank = true;
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (chosen) {
    const RunPickerRow& row = rows_[selected_];
    *picked = row.run_traces >= 2 && !one_rank ? Choice{"", row.run_dir} : Choice{row.path, ""};
  }
  if (ImGui::Button("Cancel") || chosen) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

}  // namespace stepline::app
