#include "ui/critical_path_list.h"

#include <imgui.h>

#include <algorithm>

#include "model/text_format.h"
#include "ui/analysis_data.h"
#include "ui/analysis_format.h"

namespace stepline::ui {

std::vector<std::string> CriticalPathRowCells(const analysis::ReportStep& step) {
  const analysis::ReportCriticalPath& p = step.critical_path;
  std::vector<std::string> cells{step.name, text::FormatDuration(p.dur_ns)};
  for (int k = 0; k < analysis::kPathKindCount; ++k) {
    const DurNs ns = p.by_kind_ns[size_t(k)];
    cells.push_back(ns > 0 ? Percent(double(ns), double(p.dur_ns)) : std::string());
  }
  cells.push_back(p.top.empty() ? std::string() : std::string(p.top.front().first));
  return cells;
}

namespace {

float CriticalPathTableHeight(size_t steps) {
  return ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(std::min<size_t>(steps, 8) + 2);
}

}  // namespace

float CriticalPathSectionHeight(const ViewState& state) {
  const analysis::Report& r = state.data->analysis.report;
  if (r.steps.empty() || r.critical_path_total.dur_ns <= 0) return 0;
  // Title, two lines of sentence, the checkbox, the table.
  return 4 * ImGui::GetFrameHeightWithSpacing() + CriticalPathTableHeight(r.steps.size());
}

void DrawCriticalPathSection(ViewState& state) {
  const analysis::Report& r = state.data->analysis.report;
  if (r.steps.empty() || r.critical_path_total.dur_ns <= 0) return;
  SectionTitle("Critical path");
  ImGui::TextWrapped("%s", r.critical_path_sentence.c_str());
  ImGui::Checkbox("Show on the timeline", &state.show_critical_path);
  const int columns = 3 + analysis::kPathKindCount;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
  const float rows_h = CriticalPathTableHeight(r.steps.size());
  if (!ImGui::BeginTable("critical_path", columns, flags, ImVec2(0, rows_h))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("step");
  ImGui::TableSetupColumn("path");
  for (int k = 0; k < analysis::kPathKindCount; ++k) {
    ImGui::TableSetupColumn(std::string(analysis::PathKindName(static_cast<analysis::PathKind>(k))).c_str());
  }
  ImGui::TableSetupColumn("most time in", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(r.steps.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const analysis::ReportStep& step = r.steps[size_t(i)];
      const std::vector<std::string> cells = CriticalPathRowCells(step);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      if (ImGui::Selectable(cells[0].c_str(), state.links.focused_step == i, ImGuiSelectableFlags_SpanAllColumns)) {
        state.links.focused_step = i;
        state.show_critical_path = true;
        state.FitRange(TimeRange{step.start_ns, step.start_ns + step.window_dur_ns}, 0.02);
      }
      ImGui::PopID();
      for (size_t c = 1; c < cells.size(); ++c) {
        ImGui::TableSetColumnIndex(static_cast<int>(c));
        ImGui::TextUnformatted(cells[c].c_str());
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
