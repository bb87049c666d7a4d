// Sortable table helpers; see sortable_table.h.
#include "ui/sortable_table.h"

#include <imgui.h>

#include <algorithm>

namespace stepline::ui {

float SortableTableMinWidth(std::span<const SortableColumn> columns) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float font = ImGui::GetFontSize();
  // Per column: padding both sides and the inner border; the header also
  // keeps room for the sort arrow (about one font height with its spacing).
  const float per_column = 2 * style.CellPadding.x + 1;
  float total = 0;
  for (const SortableColumn& c : columns) {
    float w = 0;
    if (c.style & kColumnStretch) {
      w = c.min_em * font;
    } else {
      w = ImGui::CalcTextSize(c.name).x + font;
      if (c.sample != nullptr) w = std::max(w, ImGui::CalcTextSize(c.sample).x);
    }
    total += w + per_column;
  }
  return total;
}

bool BeginSortableTable(const char* id, std::span<const SortableColumn> columns, int flags, int frozen_columns) {
  const float avail = ImGui::GetContentRegionAvail().x;
  const float need = SortableTableMinWidth(columns);
  // The vertical scrollbar takes its width out of the visible area; count it
  // so a table that just fits does not get a needless horizontal bar.
  const float visible = avail - ImGui::GetStyle().ScrollbarSize;
  // inner_width 0 with ScrollX: stretch columns share the visible width, as
  // without ScrollX. A larger inner width is the scrolled extent; stretch
  // columns then share what the fixed ones leave of it.
  const float inner_width = need <= visible ? 0.f : need;
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()), flags | ImGuiTableFlags_ScrollX, ImVec2(0, 0),
                         inner_width)) {
    return false;
  }
  SetupSortableColumns(columns, frozen_columns);
  return true;
}

void SetupSortableColumns(std::span<const SortableColumn> columns, int frozen_columns) {
  ImGui::TableSetupScrollFreeze(frozen_columns, 1);
  for (size_t c = 0; c < columns.size(); ++c) {
    const uint8_t style = columns[c].style;
    ImGuiTableColumnFlags f = style & kColumnStretch ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed;
    if (style & kColumnDescending) f |= ImGuiTableColumnFlags_PreferSortDescending;
    if (style & kColumnDefaultSort) f |= ImGuiTableColumnFlags_DefaultSort;
    float weight = style & kColumnStretch ? columns[c].weight : 0.f;
    if (!(style & kColumnStretch) && (style & kColumnSampleWidth) && columns[c].sample != nullptr) {
      weight = std::max(ImGui::CalcTextSize(columns[c].name).x + ImGui::GetFontSize(),
                        ImGui::CalcTextSize(columns[c].sample).x);
    }
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

float SideChartWidth(float avail, float table_min, float preferred, float share, float min) {
  const float wanted = std::min(preferred, avail * share);
  // Under `min` only when the whole area is small: then `share` of it.
  return std::min(wanted, std::max(min, avail - table_min));
}

}  // namespace stepline::ui
