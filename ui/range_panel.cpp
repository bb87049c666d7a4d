// RangePanel drawing; the aggregation itself is analysis::AggregateSlicesInRange.
#include "ui/range_panel.h"

#include <imgui.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "ui/analysis_tables.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

void RangePanel::MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const {
  const Trace* trace = state.trace();
  if (trace == nullptr || !state.range || computed_for_ != state.range ||
      computed_generation_ != state.data->generation) {
    ImGui::TextDisabled("Select a time range to export its table");
    return;
  }
  TableExportMenuItems("range table", "range", [&] { return RangeTable(*trace, rows_, order_); }, exports);
}

void RangePanel::Draw(ViewState& state) {
  const Trace* trace = state.trace();
  if (trace == nullptr || !state.range) {
    ImGui::TextDisabled("Drag on the ruler (or shift-drag on the tracks) to aggregate a time range.");
    return;
  }
  if (computed_for_ != state.range || computed_generation_ != state.data->generation) {
    rows_ = analysis::AggregateSlicesInRange(*trace, *state.range);
    order_.resize(rows_.size());
    std::iota(order_.begin(), order_.end(), 0);
    computed_for_ = state.range;
    computed_generation_ = state.data->generation;
  }
  ImGui::Text("Range %s: %zu names", FormatDuration(state.range->duration_ns()).c_str(), rows_.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV;
  static constexpr SortableColumn kColumns[] = {
      {"Name", kColumnStretch, 0, theme::kNameColumnMinEm},
      {"Count", kColumnFixed, 0, 0, kSampleCount},
      {"Total", kColumnDescending | kColumnDefaultSort, 0, 0, kSampleDuration},
      {"Self", kColumnFixed, 0, 0, kSampleDuration},
      {"Average", kColumnFixed, 0, 0, kSampleDuration}};
  if (!BeginSortableTable("##range", kColumns, flags, 1)) return;
  int column = 0;
  bool asc = false;
  if (TakeSortChange(&column, &asc)) {
    auto key = [&](size_t i) -> int64_t {
      switch (column) {
        case 1: return static_cast<int64_t>(rows_[i].count);
        case 2: return rows_[i].total_ns;
        case 3: return rows_[i].self_ns;
        case 4: return rows_[i].avg_ns();
        default: return 0;
      }
    };
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      if (column == 0) {
        const auto na = trace->str(rows_[a].name), nb = trace->str(rows_[b].name);
        return asc ? na < nb : na > nb;
      }
      return asc ? key(a) < key(b) : key(a) > key(b);
    });
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(order_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const auto& row = rows_[order_[r]];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string name(trace->str(row.name));
      ImGui::TextUnformatted(name.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(row.count));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(row.total_ns).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(row.self_ns).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(row.avg_ns()).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
