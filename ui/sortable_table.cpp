// Sortable table helpers; see sortable_table.h.
#include "ui/sortable_table.h"

#include <imgui.h>

namespace stepline::ui {

void SetupSortableColumns(std::span<const SortableColumn> columns) {
  ImGui::TableSetupScrollFreeze(0, 1);
  for (size_t c = 0; c < columns.size(); ++c) {
    const uint8_t style = columns[c].style;
    ImGuiTableColumnFlags f = style & kColumnStretch ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed;
    if (style & kColumnDescending) f |= ImGuiTableColumnFlags_PreferSortDescending;
    if (style & kColumnDefaultSort) f |= ImGuiTableColumnFlags_DefaultSort;
    const float weight = style & kColumnStretch ? columns[c].weight : 0.f;
    ImGui::TableSetupColumn(columns[c].name, f, weight, static_cast<ImGuiID>(c));
  }
  ImGui::TableHeadersRow();
}

bool TakeSortChange(int* column, bool* ascending) {
  ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (specs == nullptr || !specs->SpecsDirty || specs->SpecsCount == 0) return false;
  *column = static_cast<int>(specs->Specs[0].ColumnUserID);
  *ascending = specs->Specs[0].SortDirection == ImGuiSortDirection_Ascending;
  specs->SpecsDirty = false;
  return true;
}

}  // namespace stepline::ui
