// OpsDiffTable: filter and sort (pure), toolbar and clipped table.
//
// [SECTION] Filter and sort (pure)
// [SECTION] Drawing
#include "ui/compare/ops_diff_table.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/ascii_case.h"
#include "ui/analysis_format.h"
#include "ui/compare/compare_theme.h"
#include "ui/op_stats_panel.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::OpDiffRow;
using analysis::Presence;

//-----------------------------------------------------------------------------
// [SECTION] Filter and sort (pure)
//-----------------------------------------------------------------------------

std::vector<uint32_t> FilterDiffRows(const std::vector<OpDiffRow>& rows, std::string_view filter) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < rows.size(); ++i) {
    if (ContainsIgnoringCase(rows[i].name, filter)) out.push_back(i);
  }
  return out;
}

namespace {

// |d| without overflow at INT64_MIN.
uint64_t Magnitude(DurNs d) { return d < 0 ? uint64_t(0) - uint64_t(d) : uint64_t(d); }

int CompareRows(const OpDiffRow& a, const OpDiffRow& b, DiffColumn column) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (column) {
    case DiffColumn::kPresence: return cmp(a.presence, b.presence);
    case DiffColumn::kKind: return cmp(a.kind, b.kind);
    case DiffColumn::kName: return cmp(a.name, b.name);
    case DiffColumn::kACount: return cmp(a.a_count, b.a_count);
    case DiffColumn::kBCount: return cmp(a.b_count, b.b_count);
    case DiffColumn::kATotal: return cmp(a.a_total_ns, b.a_total_ns);
    case DiffColumn::kBTotal: return cmp(a.b_total_ns, b.b_total_ns);
    case DiffColumn::kDelta: return cmp(Magnitude(a.delta_ns), Magnitude(b.delta_ns));
    case DiffColumn::kDeltaPerStep: return cmp(a.delta_per_step_ns, b.delta_per_step_ns);
  }
  return 0;
}

}  // namespace

void SortDiffRows(const std::vector<OpDiffRow>& rows, DiffColumn column, bool ascending, std::vector<uint32_t>* order) {
  std::sort(order->begin(), order->end(), [&](uint32_t x, uint32_t y) {
    const int c = CompareRows(rows[x], rows[y], column);
    if (c != 0) return ascending ? c < 0 : c > 0;
    return x < y;
  });
}

const char* PresenceLabel(Presence p) {
  switch (p) {
    case Presence::kBoth: return "";
    case Presence::kOnlyA: return "only A";
    case Presence::kOnlyB: return "only B";
  }
  return "";
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------

namespace {

// "+1.25 ms" / "-300 µs" / "0": a signed duration.
std::string SignedDuration(double ns) {
  if (ns == 0 || std::isnan(ns)) return "0";
  return (ns > 0 ? "+" : "-") + FormatDuration(static_cast<DurNs>(std::llround(std::fabs(ns))));
}

ImVec4 DeltaColor(double delta) {
  // Ops are time: less of it is better.
  if (delta < 0) return ImGui::ColorConvertU32ToFloat4(theme::kImprovement);
  if (delta > 0) return ImGui::ColorConvertU32ToFloat4(theme::kRegression);
  return ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled);
}

// In DiffColumn order; counts and times sort largest first, |B - A| first
// of all.
constexpr SortableColumn kDiffTableColumns[kDiffColumnCount] = {
    {"In", kColumnFixed, 0, 0, "only A"},
    {"Kind", kColumnFixed, 0, 0, "host_op"},
    {"Name", kColumnStretch, 0, theme::kNameColumnMinEm},
    {"A count", kColumnDescending, 0, 0, kSampleCount},
    {"B count", kColumnDescending, 0, 0, kSampleCount},
    {"A total", kColumnDescending, 0, 0, kSampleDuration},
    {"B total", kColumnDescending, 0, 0, kSampleDuration},
    {"B - A", kColumnDescending | kColumnDefaultSort, 0, 0, "+999.9 ms"},
    {"per step", kColumnDescending, 0, 0, "+999.9 ms"}};

}  // namespace

void OpsDiffTable::Reset() {
  built_ = false;
  selected_ = -1;
}

void OpsDiffTable::Rebuild(const analysis::Comparison& c) {
  built_ = true;
  built_filter_ = filter_;
  order_ = FilterDiffRows(c.ops, built_filter_);
  SortDiffRows(c.ops, sort_column_, sort_ascending_, &order_);
  only_a_ = only_b_ = 0;
  for (uint32_t i : order_) {
    only_a_ += c.ops[i].presence == Presence::kOnlyA;
    only_b_ += c.ops[i].presence == Presence::kOnlyB;
  }
}

OpsDiffTable::Event OpsDiffTable::Draw(const analysis::Comparison& c, bool* normalize,
                                       const size_t highlight_counts[2]) {
  Event ev;
  if (!built_ || built_filter_ != filter_) Rebuild(c);
  DrawToolbar(c, normalize, highlight_counts, &ev);
  if (c.ops.empty()) {
    ImGui::TextDisabled("Neither run has ops.");
    return ev;
  }
  DrawTable(c, &ev);
  return ev;
}

void OpsDiffTable::DrawToolbar(const analysis::Comparison& c, bool* normalize, const size_t highlight_counts[2],
                               Event* ev) {
  const float s = UiScale();
  ImGui::SetNextItemWidth(260 * s);
  ImGui::InputTextWithHint("##diff_filter", "Filter op names", filter_, sizeof filter_);
  ImGui::SameLine();
  if (ImGui::Checkbox("normalize names", normalize)) ev->normalize_changed = true;
  if (ImGui::IsItemHovered()) {
    WrappedTooltip(
        "Merge names that differ only by numbering, template arguments, argument lists or\n"
        "addresses (aten::add_12 and aten::add_7 become aten::add), so both runs line up.");
  }
  // The counts wrap to the next line when narrow rather than run off the edge.
  const std::string ops = std::to_string(order_.size()) + " ops";
  const std::string in_a = std::to_string(only_a_) + " only in A";
  const std::string in_b = std::to_string(only_b_) + " only in B";
  for (const std::string* text : {&ops, &in_a, &in_b}) {
    SameLineIfFits(ImGui::CalcTextSize(text->c_str()).x);
    const uint32_t color = text == &in_a ? theme::kRunA : text == &in_b ? theme::kRunB : 0;
    if (color == 0) {
      ImGui::TextUnformatted(text->c_str());
    } else {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(color), "%s", text->c_str());
    }
  }
  if (selected_ >= 0 && static_cast<size_t>(selected_) < c.ops.size()) {
    // Its own line: a long op name must not push the button off screen.
    const std::string& name = c.ops[selected_].name;
    if (ImGui::SmallButton("clear")) {
      selected_ = -1;
      ev->cleared = true;
    }
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kOpHighlight), "%zu in A, %zu in B highlighted: %s",
                       highlight_counts[0], highlight_counts[1], name.c_str());
  }
}

void OpsDiffTable::DrawTable(const analysis::Comparison& c, Event* ev) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Hideable;
  // In, Kind and Name stay put when the numbers scroll sideways: at
  // 1024 px the numbers kept their width and names fell to 4 characters.
  if (!BeginSortableTable("##ops_diff", kDiffTableColumns, flags, static_cast<int>(DiffColumn::kName) + 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<DiffColumn>(column);
    SortDiffRows(c.ops, sort_column_, sort_ascending_, &order_);
  }
  const ImVec4 a_color = ImGui::ColorConvertU32ToFloat4(theme::kRunA);
  const ImVec4 b_color = ImGui::ColorConvertU32ToFloat4(theme::kRunB);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(order_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const uint32_t i = order_[r];
      const OpDiffRow& op = c.ops[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      if (op.presence == Presence::kOnlyA) ImGui::PushStyleColor(ImGuiCol_Text, a_color);
      if (op.presence == Presence::kOnlyB) ImGui::PushStyleColor(ImGuiCol_Text, b_color);
      const char* mark = op.presence == Presence::kBoth ? "A B" : PresenceLabel(op.presence);
      if (ImGui::Selectable(mark, selected_ == static_cast<int>(i), ImGuiSelectableFlags_SpanAllColumns)) {
        selected_ = static_cast<int>(i);
        ev->selected = selected_;
      }
      if (op.presence != Presence::kBoth) ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::TableNextColumn();
      const std::string_view kind = analysis::OpKindName(op.kind);
      ImGui::TextUnformatted(kind.data(), kind.data() + kind.size());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.name.c_str());
      if (ImGui::IsItemHovered() && (op.name.size() > 40 || op.merged_names > 1)) {
        WrappedTooltip(
            "%s%s", op.name.c_str(),
            op.merged_names > 1 ? ("\n" + std::to_string(op.merged_names) + " raw names merged").c_str() : "");
      }
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(op.a_count));
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(op.b_count));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.presence == Presence::kOnlyB ? "-" : FormatDuration(op.a_total_ns).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.presence == Presence::kOnlyA ? "-" : FormatDuration(op.b_total_ns).c_str());
      ImGui::TableNextColumn();
      ImGui::TextColored(DeltaColor(static_cast<double>(op.delta_ns)), "%s",
                         SignedDuration(static_cast<double>(op.delta_ns)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextColored(DeltaColor(op.delta_per_step_ns), "%s", SignedDuration(op.delta_per_step_ns).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
