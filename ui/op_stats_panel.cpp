// OpStatsPanel: filter and sort (pure), toolbar, table and top-10 chart.
//
// [SECTION] Filter and sort (pure)
// [SECTION] Drawing
#include "ui/op_stats_panel.h"

#include <imgui.h>

#include <algorithm>
#include <numeric>

#include "model/ascii_case.h"
#include "ui/analysis_tables.h"
#include "ui/search_matches.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::ReportOp;

//-----------------------------------------------------------------------------
// [SECTION] Filter and sort (pure)
//-----------------------------------------------------------------------------

std::vector<uint32_t> FilterOps(const analysis::Report& report, const std::string& filter, OpSide side) {
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < report.ops.size(); ++i) {
    const ReportOp& op = report.ops[i];
    const bool device = analysis::IsDeviceOpKind(op.kind);
    if (side == OpSide::kHost && device) continue;
    if (side == OpSide::kDevice && !device) continue;
    if (ContainsIgnoringCase(op.name, filter)) rows.push_back(i);
  }
  return rows;
}

namespace {

// -1, 0, 1 comparison of two ops on one column.
int CompareOps(const ReportOp& a, const ReportOp& b, OpColumn column) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (column) {
    case OpColumn::kSide: return cmp(analysis::IsDeviceOpKind(a.kind), analysis::IsDeviceOpKind(b.kind));
    case OpColumn::kKind: return cmp(a.kind, b.kind);
    case OpColumn::kName: return cmp(a.name, b.name);
    case OpColumn::kCount: return cmp(a.count, b.count);
    case OpColumn::kTotal: return cmp(a.total_ns, b.total_ns);
    case OpColumn::kAvg: return cmp(a.avg_ns, b.avg_ns);
    case OpColumn::kMin: return cmp(a.min_ns, b.min_ns);
    case OpColumn::kMax: return cmp(a.max_ns, b.max_ns);
    case OpColumn::kSelf: return cmp(a.self_ns, b.self_ns);
    case OpColumn::kPercent: return cmp(a.percent, b.percent);
    case OpColumn::kCumulative: return cmp(a.cumulative_percent, b.cumulative_percent);
    case OpColumn::kFlops: return cmp(a.flops, b.flops);
    case OpColumn::kTflops: return cmp(a.achieved_tflops, b.achieved_tflops);
    case OpColumn::kIntensity: return cmp(a.intensity, b.intensity);
    case OpColumn::kBound: return cmp(a.bound, b.bound);
  }
  return 0;
}

}  // namespace

void SortOps(const analysis::Report& report, OpColumn column, bool ascending, std::vector<uint32_t>* rows) {
  std::sort(rows->begin(), rows->end(), [&](uint32_t x, uint32_t y) {
    const int c = CompareOps(report.ops[x], report.ops[y], column);
    if (c != 0) return ascending ? c < 0 : c > 0;
    return x < y;
  });
}

std::vector<uint32_t> TopOpsBySelf(const analysis::Report& report, size_t n) {
  std::vector<uint32_t> rows(report.ops.size());
  std::iota(rows.begin(), rows.end(), 0u);
  SortOps(report, OpColumn::kSelf, false, &rows);
  rows.resize(std::min(n, rows.size()));
  return rows;
}

//-----------------------------------------------------------------------------
// [SECTION] Drawing
//-----------------------------------------------------------------------------

namespace {

// In OpColumn order; counts and times sort largest first.
constexpr SortableColumn kOpTableColumns[kOpColumnCount] = {
    {"Side", kColumnFixed, 0, 0, "device"},
    {"Kind", kColumnFixed, 0, 0, "host_op"},
    {"Name", kColumnStretch, 0, theme::kNameColumnMinEm},
    {"Count", kColumnDescending, 0, 0, kSampleCount},
    {"Total", kColumnDescending | kColumnDefaultSort, 0, 0, kSampleDuration},
    {"Avg", kColumnDescending, 0, 0, kSampleDuration},
    {"Min", kColumnDescending, 0, 0, kSampleDuration},
    {"Max", kColumnDescending, 0, 0, kSampleDuration},
    {"Self", kColumnDescending, 0, 0, kSampleDuration},
    {"% time", kColumnDescending, 0, 0, kSamplePercent},
    {"Cum. %", kColumnDescending, 0, 0, kSamplePercent},
    {"FLOPs", kColumnDescending, 0, 0, "999.99 GFLOP"},
    {"TFLOP/s", kColumnDescending, 0, 0, "999.999"},
    {"FLOP/B", kColumnDescending, 0, 0, "9999.9"},  // arithmetic intensity: FLOPs per byte read and written
    {"Bound", kColumnFixed, 0, 0, "compute"}};

}  // namespace

void OpStatsPanel::Select(ViewState& state, uint32_t op) {
  selected_op_ = static_cast<int32_t>(op);
  const analysis::ReportOp& r = state.data->analysis.report.ops[op];
  state.HighlightOp(state.data->analysis.ops.ops[op].name, analysis::IsDeviceOpKind(r.kind));
  if (!state.links.op_occurrences.empty()) state.SelectAndReveal(SliceId(state.links.op_occurrences.front()));
}

void OpStatsPanel::MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const {
  const analysis::Report& report = state.data->analysis.report;
  TableExportMenuItems("ops table", "ops", [&] { return OpsTable(report, rows_); }, exports);
}

void OpStatsPanel::Draw(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  if (report.ops.empty()) {
    ImGui::TextDisabled("No ops in this trace.");
    return;
  }
  if (built_generation_ != state.data->generation || built_filter_ != filter_ || built_side_ != side_) {
    built_generation_ = state.data->generation;
    built_filter_ = filter_;
    built_side_ = side_;
    rows_ = FilterOps(report, built_filter_, side_);
    SortOps(report, sort_column_, sort_ascending_, &rows_);
  }
  DrawToolbar(state);
  const float s = UiScale();
  // The chart gives way before the names do: at ~1000 px a 30% chart left
  // the Name column one character wide.
  const float chart_w =
      SideChartWidth(ImGui::GetContentRegionAvail().x, SortableTableMinWidth(kOpTableColumns),
                     theme::kTopOpsChartWidth * s, theme::kTopOpsChartShare, theme::kSideChartMinWidth * s);
  ImGui::BeginChild("##op_table", ImVec2(-chart_w, 0));
  if (show_step_markers_) DrawStepMarkers(state);
  DrawTable(state);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginGroup();
  ImGui::TextDisabled("Top 10 ops by self time");
  DrawTopChart(state, chart_w - theme::kSideChartGap * s);
  ImGui::EndGroup();
}

void OpStatsPanel::DrawToolbar(ViewState& state) {
  ImGui::SetNextItemWidth(260 * UiScale());
  ImGui::InputTextWithHint("##op_filter", "Filter op names", filter_, sizeof filter_);
  ImGui::SameLine();
  int side = static_cast<int>(side_);
  ImGui::SetNextItemWidth(100 * UiScale());
  if (ImGui::Combo("##side", &side, "Host + device\0Host\0Device\0")) side_ = static_cast<OpSide>(side);
  ImGui::SameLine();
  ImGui::Text("%zu ops", rows_.size());
  if (!state.data->analysis.report.step_markers.empty()) {
    ImGui::SameLine();
    ImGui::Checkbox("Show step markers", &show_step_markers_);
  }
  if (!state.links.highlighted_op.is_none()) {
    ImGui::SameLine();
    const std::string_view name = state.trace()->str(state.links.highlighted_op);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kOpHighlight), "%zu occurrences of %.*s",
                       state.links.op_occurrences.size(), static_cast<int>(std::min<size_t>(name.size(), 60)),
                       name.data());
    ImGui::SameLine();
    const bool prev = ImGui::SmallButton("< prev");
    ImGui::SameLine();
    const bool next = ImGui::SmallButton("next >");
    if (prev || next) {
      const SliceId to = StepSearch(state.links.op_occurrences, state.selected, prev);
      if (!to.is_none()) state.SelectAndReveal(to);
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("clear")) {
      state.HighlightOp(StringId::None(), false);
      selected_op_ = -1;
    }
  }
}

// Step markers wrap whole steps, so they are not ops (their time is their
// children's): listed apart, only when asked for.
void OpStatsPanel::DrawStepMarkers(ViewState& state) {
  const std::vector<ReportOp>& markers = state.data->analysis.report.step_markers;
  if (markers.empty()) return;
  ImGui::TextDisabled("Step markers (not ops: each wraps a step)");
  const float rows = static_cast<float>(std::min<size_t>(markers.size(), 6) + 1);
  const ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("##step_markers", 3, flags, ImVec2(0, rows * ImGui::GetTextLineHeightWithSpacing()))) return;
  ImGui::TableSetupColumn("Marker", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Total", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  for (const ReportOp& m : markers) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(m.name.data(), m.name.data() + m.name.size());
    ImGui::TableNextColumn();
    ImGui::Text("%llu", static_cast<unsigned long long>(m.count));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatDuration(m.total_ns).c_str());
  }
  ImGui::EndTable();
}

void OpStatsPanel::DrawTable(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Hideable;
  // Side, Kind and Name stay put when the numbers scroll sideways.
  if (!BeginSortableTable("##ops", kOpTableColumns, flags, static_cast<int>(OpColumn::kName) + 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<OpColumn>(column);
    SortOps(report, sort_column_, sort_ascending_, &rows_);
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const uint32_t i = rows_[r];
      const ReportOp& op = report.ops[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::Selectable(analysis::IsDeviceOpKind(op.kind) ? "device" : "host", selected_op_ == static_cast<int32_t>(i),
                            ImGuiSelectableFlags_SpanAllColumns)) {
        Select(state, i);
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      const std::string_view kind = analysis::OpKindName(op.kind);
      ImGui::TextUnformatted(kind.data(), kind.data() + kind.size());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.name.data(), op.name.data() + op.name.size());
      if (op.kind == analysis::OpKind::kGraphReplay) {  // one row per graph: say which
        ImGui::SameLine();
        ImGui::TextDisabled("graph %lld", static_cast<long long>(op.graph_id));
      }
      if (ImGui::IsItemHovered() && op.name.size() > 40) WrappedTooltip("%.*s", static_cast<int>(op.name.size()), op.name.data());
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(op.count));
      for (DurNs ns : {op.total_ns, op.avg_ns, op.min_ns, op.max_ns, op.self_ns}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(FormatDuration(ns).c_str());
      }
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", op.percent);
      ImGui::TableNextColumn();
      ImGui::Text("%.1f%%", op.cumulative_percent);
      // Unknown FLOPs are "-", never 0 (the report's null).
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(op.flops < 0 ? "-" : analysis::FormatFlops(op.flops).c_str());
      ImGui::TableNextColumn();
      if (op.achieved_tflops < 0) {
        ImGui::TextUnformatted("-");
      } else {
        ImGui::Text("%.3f", op.achieved_tflops);
      }
      ImGui::TableNextColumn();  // bytes known only from a matmul's shapes and input type
      if (op.intensity < 0) {
        ImGui::TextUnformatted("-");
      } else {
        ImGui::Text("%.1f", op.intensity);
      }
      ImGui::TableNextColumn();
      const std::string_view bound = analysis::OpBoundName(op.bound);
      ImGui::TextUnformatted(bound.empty() ? "-" : std::string(bound).c_str());
    }
  }
  ImGui::EndTable();
}

void OpStatsPanel::DrawTopChart(ViewState& state, float width) {
  const analysis::Report& report = state.data->analysis.report;
  if (top_generation_ != state.data->generation) {  // sorts every op: once per trace, not per frame
    top_generation_ = state.data->generation;
    top_ = TopOpsBySelf(report, 10);
  }
  const std::vector<uint32_t>& top = top_;
  if (top.empty() || report.ops[top.front()].self_ns <= 0) return;
  const float s = UiScale();
  const float row_h = std::max(theme::kTopOpsRowHeight * s, ImGui::GetFontSize() + 4 * s);
  const double max_ns = static_cast<double>(report.ops[top.front()].self_ns);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (uint32_t i : top) {
    const ReportOp& op = report.ops[i];
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(static_cast<int>(i));
    ImGui::InvisibleButton("##top", ImVec2(width, row_h));
    ImGui::PopID();
    const float w = width * static_cast<float>(static_cast<double>(op.self_ns) / max_ns);
    const uint32_t solid = analysis::IsDeviceOpKind(op.kind) ? theme::kKindKernel : theme::kKindHostOp;
    const uint32_t color = (solid & 0x00ffffffu) | uint32_t{theme::kTopOpsBarAlpha} << 24;
    dl->AddRectFilled(ImVec2(p.x, p.y + 1), ImVec2(p.x + std::max(w, 1.f), p.y + row_h - 1), color);
    const std::string label = FormatDuration(op.self_ns) + "  " + std::string(op.name);
    const ImVec4 clip(p.x, p.y, p.x + width, p.y + row_h);
    const ImVec2 at(p.x + 4 * s, p.y + (row_h - ImGui::GetFontSize()) / 2);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + 1, at.y + 1), theme::kTextShadow, label.c_str(),
                nullptr, 0.f, &clip);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), at, theme::kCardValue, label.c_str(), nullptr, 0.f, &clip);
    if (ImGui::IsItemHovered()) {
      WrappedTooltip("%.*s (%s)\nself %s, %.1f%% of %s time\nClick to highlight on the timeline",
                        static_cast<int>(op.name.size()), op.name.data(), std::string(analysis::OpKindName(op.kind)).c_str(),
                        FormatDuration(op.self_ns).c_str(), op.percent,
                        analysis::IsDeviceOpKind(op.kind) ? "device" : "host");
    }
    if (ImGui::IsItemClicked()) Select(state, i);
  }
}

}  // namespace stepline::ui
