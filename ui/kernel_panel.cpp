// KernelPanel: filter and sort (pure) and the table.
#include "ui/kernel_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "model/ascii_case.h"
#include "ui/analysis_tables.h"
#include "ui/op_stats_panel.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/xla_modules_table.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::ReportKernel;

std::vector<uint32_t> FilterKernels(const analysis::Report& report, const std::string& filter) {
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < report.kernels.size(); ++i) {
    const ReportKernel& k = report.kernels[i];
    if (ContainsIgnoringCase(k.name, filter) || ContainsIgnoringCase(k.framework_op, filter)) rows.push_back(i);
  }
  return rows;
}

namespace {

int64_t Threads(const std::array<int64_t, 3>& d) { return d[0] * d[1] * d[2]; }

int CompareKernels(const ReportKernel& a, const ReportKernel& b, KernelColumn column) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (column) {
    case KernelColumn::kName: return cmp(a.name, b.name);
    case KernelColumn::kOp: return cmp(a.framework_op, b.framework_op);
    case KernelColumn::kCount: return cmp(a.count, b.count);
    case KernelColumn::kTotal: return cmp(a.total_ns, b.total_ns);
    case KernelColumn::kAvg: return cmp(a.avg_ns, b.avg_ns);
    case KernelColumn::kMin: return cmp(a.min_ns, b.min_ns);
    case KernelColumn::kMax: return cmp(a.max_ns, b.max_ns);
    case KernelColumn::kGrid: return cmp(Threads(a.grid), Threads(b.grid));
    case KernelColumn::kBlock: return cmp(Threads(a.block), Threads(b.block));
    case KernelColumn::kRegisters: return cmp(a.registers_per_thread, b.registers_per_thread);
    case KernelColumn::kSharedMemory: return cmp(a.shared_memory_bytes, b.shared_memory_bytes);
    case KernelColumn::kOccupancy: return cmp(a.occupancy_percent, b.occupancy_percent);
    case KernelColumn::kBound: return cmp(a.bound, b.bound);
    case KernelColumn::kGraph: return a.graph_id != b.graph_id ? cmp(a.graph_id, b.graph_id) : cmp(a.graph_node_id, b.graph_node_id);
  }
  return 0;
}

}  // namespace

void SortKernels(const analysis::Report& report, KernelColumn column, bool ascending, std::vector<uint32_t>* rows) {
  std::sort(rows->begin(), rows->end(), [&](uint32_t x, uint32_t y) {
    const int c = CompareKernels(report.kernels[x], report.kernels[y], column);
    if (c != 0) return ascending ? c < 0 : c > 0;
    return x < y;
  });
}

namespace {

// Adds kernel row `i` to `g`: counts and times sum, configuration fields stay
// only where every row agrees.
void AddToKernelGroup(const ReportKernel& k, uint32_t i, KernelGroup* g) {
  ReportKernel& t = g->total;
  g->configs.push_back(i);
  t.count += k.count;
  t.total_ns += k.total_ns;
  t.min_ns = std::min(t.min_ns, k.min_ns);
  t.max_ns = std::max(t.max_ns, k.max_ns);
  if (t.grid != k.grid) t.grid = {};
  if (t.block != k.block) t.block = {};
  if (t.registers_per_thread != k.registers_per_thread) t.registers_per_thread = -1;
  if (t.shared_memory_bytes != k.shared_memory_bytes) t.shared_memory_bytes = -1;
  if (t.occupancy_percent != k.occupancy_percent) t.occupancy_percent = -1;
  if (t.framework_op != k.framework_op) g->same_op = false;
  if (t.bound != k.bound) t.bound = analysis::OpBound::kUnknown;
  if (t.graph_id != k.graph_id) t.graph_id = -1;
  if (t.graph_node_id != k.graph_node_id) t.graph_node_id = -1;
}

void FinishKernelGroups(KernelColumn column, bool ascending, std::vector<KernelGroup>* groups) {
  for (KernelGroup& g : *groups) {
    g.total.avg_ns = g.total.count > 0 ? g.total.total_ns / static_cast<DurNs>(g.total.count) : 0;
    if (!g.same_op) g.total.framework_op = {};
  }
  std::stable_sort(groups->begin(), groups->end(), [&](const KernelGroup& a, const KernelGroup& b) {
    const int c = CompareKernels(a.total, b.total, column);
    return ascending ? c < 0 : c > 0;
  });
}

}  // namespace

std::vector<KernelGroup> GroupKernelsByName(const analysis::Report& report, const std::vector<uint32_t>& rows,
                                            KernelColumn column, bool ascending) {
  std::vector<KernelGroup> groups;
  std::unordered_map<std::string_view, size_t> by_name;
  for (uint32_t i : rows) {
    const ReportKernel& k = report.kernels[i];
    auto [it, fresh] = by_name.try_emplace(k.name, groups.size());
    if (fresh) {
      groups.push_back(KernelGroup{k, {i}, true, {}});
      continue;
    }
    AddToKernelGroup(k, i, &groups[it->second]);
  }
  FinishKernelGroups(column, ascending, &groups);
  return groups;
}

std::vector<KernelGroup> GroupKernelsByGraph(const analysis::Report& report, const std::vector<uint32_t>& rows,
                                             KernelColumn column, bool ascending) {
  std::vector<KernelGroup> groups;
  std::unordered_map<int64_t, size_t> by_graph;
  for (uint32_t i : rows) {
    const ReportKernel& k = report.kernels[i];
    const int64_t graph = k.graph_id >= 0 ? k.graph_id : -1;
    auto [it, fresh] = by_graph.try_emplace(graph, groups.size());
    if (fresh) {
      KernelGroup g{k, {i}, true, {}};
      g.total.name = {};
      g.total.graph_node_id = -1;
      groups.push_back(std::move(g));
      continue;
    }
    AddToKernelGroup(k, i, &groups[it->second]);
  }
  FinishKernelGroups(column, ascending, &groups);
  // Kernels outside graphs last, whatever the sort: the graphs are the point.
  std::stable_partition(groups.begin(), groups.end(), [](const KernelGroup& g) { return g.total.graph_id >= 0; });
  for (KernelGroup& g : groups) {
    const std::string kernels = std::to_string(g.configs.size()) + (g.configs.size() == 1 ? " kernel" : " kernels");
    g.label = g.total.graph_id >= 0 ? "graph " + std::to_string(g.total.graph_id) + " (" + kernels + ")"
                                    : "outside graphs (" + kernels + ")";
  }
  return groups;
}

std::string KernelGraphLabel(const ReportKernel& k) {
  if (k.graph_id < 0) return {};
  std::string out = "graph " + std::to_string(k.graph_id);
  if (k.graph_node_id >= 0) out += " node " + std::to_string(k.graph_node_id);
  return out;
}

std::string FormatDim3(const std::array<int64_t, 3>& d) {
  if (d[0] == 0 && d[1] == 0 && d[2] == 0) return "-";
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

namespace {

// In KernelColumn order; counts, times and sizes sort largest first. Kernel
// names run long, op names less so: 2:1 in width, and in minimum width.
constexpr SortableColumn kKernelTableColumns[kKernelColumnCount] = {
    {"Kernel", kColumnStretch, 2.f, 2 * theme::kKernelOpMinEm},
    {"Launching op", kColumnStretch, 1.f, theme::kKernelOpMinEm},
    {"Count", kColumnDescending, 0, 0, kSampleCount},
    {"Total", kColumnDescending | kColumnDefaultSort, 0, 0, kSampleDuration},
    {"Avg", kColumnDescending, 0, 0, kSampleDuration},
    {"Min", kColumnDescending, 0, 0, kSampleDuration},
    {"Max", kColumnDescending, 0, 0, kSampleDuration},
    {"Grid", kColumnDescending, 0, 0, "1024x1x1"},
    {"Block", kColumnDescending, 0, 0, "256x1x1"},
    {"Registers", kColumnDescending},
    {"Shared mem", kColumnDescending, 0, 0, "49152 B"},
    {"Occupancy", kColumnDescending},
    {"Bound", kColumnFixed, 0, 0, "compute"},
    {"Graph", kColumnFixed, 0, 0, "graph 12 node 123"}};

}  // namespace

void KernelPanel::MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const {
  const analysis::Report& report = state.data->analysis.report;
  TableExportMenuItems("kernels table", "kernels", [&] { return KernelsTable(report, rows_); }, exports);
}

void KernelPanel::Draw(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  DrawXlaModulesTable(report);
  if (report.kernels.empty()) {
    ImGui::TextDisabled("No GPU kernels in this trace.");
    return;
  }
  ImGui::SetNextItemWidth(260 * UiScale());
  ImGui::InputTextWithHint("##kernel_filter", "Filter kernel or op names", filter_, sizeof filter_);
  if (built_generation_ != state.data->generation || built_filter_ != filter_) {
    built_generation_ = state.data->generation;
    built_filter_ = filter_;
    rows_ = FilterKernels(report, built_filter_);
    SortKernels(report, sort_column_, sort_ascending_, &rows_);
    // A trace that replays graphs opens grouped by graph, the question it raises;
    // once the user picks a grouping it stays (where the trace allows it).
    if (!grouping_chosen_) grouping_ = report.graph_replays.empty() ? KernelGrouping::kByName : KernelGrouping::kByGraph;
    if (report.graph_replays.empty() && grouping_ == KernelGrouping::kByGraph) grouping_ = KernelGrouping::kByName;
    Regroup(report);
  }
  ImGui::SameLine();
  // Grouping by graph is offered only when the trace replays CUDA / HIP graphs.
  const bool graphs = !report.graph_replays.empty();
  constexpr const char* kGroupingNames[] = {"group by name", "group by graph", "no grouping"};
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("group by graph").x + ImGui::GetFrameHeight() * 2);
  if (ImGui::BeginCombo("##kernel_grouping", kGroupingNames[static_cast<int>(grouping_)])) {
    for (int g = 0; g < 3; ++g) {
      if (g == static_cast<int>(KernelGrouping::kByGraph) && !graphs) continue;
      if (ImGui::Selectable(kGroupingNames[g], g == static_cast<int>(grouping_))) {
        grouping_ = static_cast<KernelGrouping>(g);
        grouping_chosen_ = true;
        Regroup(report);
      }
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) {
    WrappedTooltip(graphs ? "By name: one row per kernel name (totals as in Op stats), its launch configurations below "
                            "it. By graph: one row per CUDA / HIP graph, the kernels of its replays below it."
                          : "By name: one row per kernel name (totals as in Op stats), its launch configurations "
                            "below it");
  }
  ImGui::SameLine();
  if (grouping_ == KernelGrouping::kByName) {
    ImGui::Text("%zu kernels, %zu configurations", groups_.size(), rows_.size());
  } else if (grouping_ == KernelGrouping::kByGraph) {
    const size_t in_graphs = groups_.empty() || groups_.back().total.graph_id >= 0 ? groups_.size() : groups_.size() - 1;
    ImGui::Text("%zu graphs, %zu kernel rows", in_graphs, rows_.size());
  } else {
    ImGui::Text("%zu kernel configurations", rows_.size());
  }
  if (selected_ >= 0 && state.links.highlighted_op == state.data->analysis.kernels[selected_].name) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%zu occurrences highlighted; step through them in Op stats)",
                        state.links.op_occurrences.size());
  }
  if (grouping_ == KernelGrouping::kNone) {
    DrawTable(state);
  } else {
    DrawGroupedTable(state);
  }
}

void KernelPanel::Regroup(const analysis::Report& report) {
  groups_.clear();
  if (grouping_ == KernelGrouping::kByName) groups_ = GroupKernelsByName(report, rows_, sort_column_, sort_ascending_);
  if (grouping_ == KernelGrouping::kByGraph) groups_ = GroupKernelsByGraph(report, rows_, sort_column_, sort_ascending_);
}

void KernelPanel::Select(ViewState& state, uint32_t kernel) {
  selected_ = static_cast<int32_t>(kernel);
  state.HighlightOp(state.data->analysis.kernels[kernel].name, true);
  if (!state.links.op_occurrences.empty()) state.SelectAndReveal(SliceId(state.links.op_occurrences.front()));
}

// Every column after the name: launching op, counts and times, configuration.
void KernelPanel::DrawKernelCells(const ReportKernel& k, const std::string& op) const {
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(op.c_str());
  ImGui::TableNextColumn();
  ImGui::Text("%llu", static_cast<unsigned long long>(k.count));
  for (DurNs ns : {k.total_ns, k.avg_ns, k.min_ns, k.max_ns}) {
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatDuration(ns).c_str());
  }
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(FormatDim3(k.grid).c_str());
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(FormatDim3(k.block).c_str());
  ImGui::TableNextColumn();
  if (k.registers_per_thread >= 0) ImGui::Text("%lld", static_cast<long long>(k.registers_per_thread));
  else ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  if (k.shared_memory_bytes >= 0) ImGui::Text("%lld B", static_cast<long long>(k.shared_memory_bytes));
  else ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  // Profilers write 0 when they did not estimate occupancy; a kernel that
  // ran had some, so 0 reads as unknown, never as "0%".
  if (k.occupancy_percent > 0) ImGui::Text("%.0f%%", k.occupancy_percent);
  else ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  const std::string_view bound = analysis::OpBoundName(k.bound);
  if (!bound.empty()) ImGui::TextUnformatted(bound.data(), bound.data() + bound.size());
  else ImGui::TextDisabled("-");
  ImGui::TableNextColumn();
  const std::string graph = KernelGraphLabel(k);
  if (!graph.empty()) ImGui::TextUnformatted(graph.c_str());
  else ImGui::TextDisabled("-");
}

void KernelPanel::DrawGroupedTable(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Hideable;
  if (!BeginSortableTable("##kernels_by_name", kKernelTableColumns, flags, 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<KernelColumn>(column);
    SortKernels(report, sort_column_, sort_ascending_, &rows_);
    Regroup(report);
  }
  for (size_t g = 0; g < groups_.size(); ++g) {
    const KernelGroup& group = groups_[g];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(g));
    const bool by_graph = grouping_ == KernelGrouping::kByGraph;
    const std::string name = group.label.empty() ? std::string(group.total.name) : group.label;
    const bool single = group.configs.size() == 1 && !by_graph;
    ImGuiTreeNodeFlags tree = ImGuiTreeNodeFlags_SpanFullWidth | ImGuiTreeNodeFlags_OpenOnArrow;
    if (single) tree |= ImGuiTreeNodeFlags_Leaf | ImGuiTreeNodeFlags_NoTreePushOnOpen;
    const bool is_selected = selected_ >= 0 && !by_graph && report.kernels[selected_].name == group.total.name;
    if (is_selected) tree |= ImGuiTreeNodeFlags_Selected;
    const bool open = ImGui::TreeNodeEx("##kernel", tree, "%s", name.c_str());
    if (ImGui::IsItemClicked() && !ImGui::IsItemToggledOpen()) Select(state, group.configs.front());
    if (ImGui::IsItemHovered() && name.size() > 40) WrappedTooltip("%s", name.c_str());
    const std::string op = group.same_op ? (group.total.framework_op.empty() ? "-" : std::string(group.total.framework_op))
                                         : "several";
    DrawKernelCells(group.total, single || by_graph ? op : op + "  (" + std::to_string(group.configs.size()) + " configs)");
    if (open && !single) {
      for (uint32_t i : group.configs) {
        const ReportKernel& k = report.kernels[i];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushID(static_cast<int>(i));
        ImGui::Indent();
        // By graph the sub-rows are kernels: their names; by name, one kernel's configurations.
        const std::string row = by_graph ? std::string(k.name) : std::string("launch configuration");
        if (ImGui::Selectable(row.c_str(), selected_ == static_cast<int32_t>(i))) Select(state, i);
        if (by_graph && ImGui::IsItemHovered() && row.size() > 40) WrappedTooltip("%s", row.c_str());
        ImGui::Unindent();
        ImGui::PopID();
        DrawKernelCells(k, k.framework_op.empty() ? "-" : std::string(k.framework_op));
      }
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void KernelPanel::DrawTable(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_Hideable;
  // The kernel name stays put when the rest scrolls sideways.
  if (!BeginSortableTable("##kernels", kKernelTableColumns, flags, 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<KernelColumn>(column);
    SortKernels(report, sort_column_, sort_ascending_, &rows_);
    Regroup(report);
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const uint32_t i = rows_[r];
      const ReportKernel& k = report.kernels[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      const std::string name(k.name);
      if (ImGui::Selectable(name.c_str(), selected_ == static_cast<int32_t>(i), ImGuiSelectableFlags_SpanAllColumns)) {
        Select(state, i);
      }
      if (ImGui::IsItemHovered() && name.size() > 40) WrappedTooltip("%s", name.c_str());
      ImGui::PopID();
      DrawKernelCells(k, k.framework_op.empty() ? "-" : std::string(k.framework_op));
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
