// Compare tables as text and the compare panels' menus; see compare_exports.h.
#include "ui/compare/compare_exports.h"

#include <imgui.h>

#include <cmath>
#include <string>

#include "ui/compare/compare_summary.h"

namespace stepline::ui {

using analysis::SummaryRow;
using analysis::SummaryUnit;

TextTable OpsDiffTextTable(const analysis::Comparison& c, const std::vector<uint32_t>& order) {
  TextTable t;
  t.header = {"in", "kind", "name", "a_count", "b_count", "a_total_ns", "b_total_ns", "delta_ns", "delta_per_step_ns"};
  for (uint32_t i : order) {
    if (i >= c.ops.size()) continue;
    const analysis::OpDiffRow& op = c.ops[i];
    t.rows.push_back({std::string(analysis::PresenceName(op.presence)), std::string(analysis::OpKindName(op.kind)),
                      op.name, IntCell(static_cast<int64_t>(op.a_count)), IntCell(static_cast<int64_t>(op.b_count)),
                      IntCell(op.a_total_ns), IntCell(op.b_total_ns), IntCell(op.delta_ns),
                      FixedCell(op.delta_per_step_ns, 1)});
  }
  return t;
}

namespace {

const char* UnitName(SummaryUnit unit) {
  switch (unit) {
    case SummaryUnit::kCount: return "count";
    case SummaryUnit::kNs: return "ns";
    case SummaryUnit::kPercent: return "percent";
    case SummaryUnit::kBytes: return "bytes";
    case SummaryUnit::kPerSecond: return "per_s";
    case SummaryUnit::kRate: return "per_s";
  }
  return "";
}

std::string ValueCell(SummaryUnit unit, double v) {
  if (unit == SummaryUnit::kPercent || unit == SummaryUnit::kPerSecond || unit == SummaryUnit::kRate) {
    return FixedCell(v, 3);
  }
  return IntCell(static_cast<int64_t>(std::llround(v)));
}

}  // namespace

TextTable CompareSummaryTextTable(const analysis::Comparison& c) {
  TextTable t;
  t.header = {"metric", "unit", "a", "b", "delta", "delta_percent"};
  for (size_t i = 0; i < c.summary.size(); ++i) {
    const SummaryRow& row = c.summary[i];
    std::string label = SummaryLabel(c, i);
    if (row.group == analysis::SummaryGroup::kBreakdown) label += " per step";
    if (row.group == analysis::SummaryGroup::kIdleByCause) label = "GPU idle per step: " + label;
    t.rows.push_back({label, UnitName(row.unit), ValueCell(row.unit, row.a), ValueCell(row.unit, row.b),
                      ValueCell(row.unit, row.delta),
                      std::isnan(row.delta_percent) ? std::string() : FixedCell(row.delta_percent, 3)});
  }
  return t;
}

bool BeginRegionMenu(const char* id, const PanelShot& region) {
  const bool any_popup = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
  if (!any_popup && ImGui::IsMouseReleased(ImGuiMouseButton_Right) &&
      ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) &&
      ImGui::IsMouseHoveringRect(ImVec2(region.x0, region.y0), ImVec2(region.x1, region.y1), false)) {
    ImGui::OpenPopup(id);
  }
  return ImGui::BeginPopup(id);
}

void PictureMenuItems(const char* what, const PanelShot& panel, ComparePanelMenus* menus) {
  const std::string label = std::string("Save ") + what + " as PNG";
  if (ImGui::MenuItem(label.c_str())) menus->save_panel = panel;
  if (ImGui::MenuItem("Save compare view as PNG")) menus->save_panel = menus->whole;
  if (ImGui::MenuItem("Save window as PNG", "F12")) menus->save_window = true;
}

}  // namespace stepline::ui
