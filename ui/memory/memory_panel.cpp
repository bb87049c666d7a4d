// MemoryPanel: filter and sort of the allocation table (pure) and the panel.
#include "ui/memory/memory_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>

#include "model/analysis/memory_analysis.h"
#include "model/ascii_case.h"
#include "model/memory_table.h"
#include "ui/op_stats_panel.h"
#include "ui/sortable_table.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::ReportAllocation;
using analysis::ReportMemory;

std::string FormatMemory(int64_t bytes) { return analysis::FormatMemoryBytes(static_cast<double>(bytes)); }

std::vector<uint32_t> FilterAllocations(const analysis::Report& report, uint32_t pool, const std::string& filter) {
  std::vector<uint32_t> rows;
  for (uint32_t i = 0; i < report.allocations.size(); ++i) {
    const ReportAllocation& a = report.allocations[i];
    if (a.pool == pool && ContainsIgnoringCase(a.op, filter)) rows.push_back(i);
  }
  return rows;
}

namespace {

// Lifetime with an open end: longer than any closed one.
DurNs Lifetime(const ReportAllocation& a) {
  if (a.alloc_ns == kAllocBeforeCapture || a.free_ns == kStillOpen) return kStillOpen;
  return a.free_ns - a.alloc_ns;
}

int CompareAllocations(const ReportAllocation& a, const ReportAllocation& b, AllocationColumn column) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (column) {
    case AllocationColumn::kOp: return cmp(a.op, b.op);
    case AllocationColumn::kBytes: return cmp(a.bytes, b.bytes);
    case AllocationColumn::kAllocated: return cmp(a.alloc_ns, b.alloc_ns);
    case AllocationColumn::kFreed: return cmp(a.free_ns, b.free_ns);
    case AllocationColumn::kLifetime: return cmp(Lifetime(a), Lifetime(b));
  }
  return 0;
}

constexpr SortableColumn kAllocationColumns[kAllocationColumnCount] = {
    {"Operator", kColumnStretch, 1.f, 16.f},
    {"Size", kColumnDescending | kColumnDefaultSort, 0, 0, "999.9 MB"},
    {"Allocated at", 0, 0, 0, kSampleDuration},
    {"Freed at", 0, 0, 0, kSampleDuration},
    {"Lifetime", kColumnDescending, 0, 0, kSampleDuration}};

std::string TimeCell(TimeNs t, TimeNs origin, bool open, const char* open_text) {
  return open ? std::string(open_text) : FormatDuration(t - origin);
}

}  // namespace

void SortAllocations(const analysis::Report& report, AllocationColumn column, bool ascending,
                     std::vector<uint32_t>* rows) {
  std::stable_sort(rows->begin(), rows->end(), [&](uint32_t x, uint32_t y) {
    const int c = CompareAllocations(report.allocations[x], report.allocations[y], column);
    if (c != 0) return ascending ? c < 0 : c > 0;
    return x < y;
  });
}

TextTable AllocationsTable(const analysis::Report& report, const std::vector<uint32_t>& rows) {
  TextTable t;
  t.header = {"device", "op", "addr", "bytes", "alloc_ns", "free_ns", "lifetime_ns"};
  for (uint32_t i : rows) {
    const ReportAllocation& a = report.allocations[i];
    const bool alloc_open = a.alloc_ns == kAllocBeforeCapture, free_open = a.free_ns == kStillOpen;
    t.rows.push_back({report.memory[a.pool].name, std::string(a.op), IntCell(static_cast<int64_t>(a.addr)),
                      IntCell(a.bytes),
                      alloc_open ? std::string() : IntCell(a.alloc_ns), free_open ? std::string() : IntCell(a.free_ns),
                      alloc_open || free_open ? std::string() : IntCell(a.free_ns - a.alloc_ns)});
  }
  return t;
}

void MemoryPanel::MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const {
  const analysis::Report& report = state.data->analysis.report;
  TableExportMenuItems("allocation table", "memory", [&] { return AllocationsTable(report, rows_); }, exports);
}

void MemoryPanel::Draw(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  if (report.memory.empty()) {
    ImGui::TextDisabled("No memory events in this trace (PyTorch: profile_memory=True; XProf: memory profiling).");
    return;
  }
  if (pool_ >= report.memory.size()) pool_ = 0;
  if (report.memory.size() > 1) {
    ImGui::SetNextItemWidth(180 * UiScale());
    if (ImGui::BeginCombo("##memory_pool", report.memory[pool_].name.c_str())) {
      for (uint32_t p = 0; p < report.memory.size(); ++p) {
        if (ImGui::Selectable(report.memory[p].name.c_str(), p == pool_)) pool_ = p;
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
  }
  const ReportMemory& m = report.memory[pool_];
  DrawSummary(state, m);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float left = std::min(avail * 0.4f, 420 * UiScale());
  ImGui::BeginChild("##live_at_peak", ImVec2(left, 0), false);
  DrawLiveAtPeak(m);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##allocations", ImVec2(0, 0), false);
  DrawAllocations(state);
  ImGui::EndChild();
}

void MemoryPanel::DrawSummary(ViewState& state, const ReportMemory& m) {
  const TimeNs origin = state.trace()->span().start_ns;
  std::string line = "Peak " + FormatMemory(m.peak_allocated_bytes);
  if (m.relative) line += " above the capture start (only sizes recorded)";
  if (m.peak_reserved_bytes >= 0) line += ", reserved " + FormatMemory(m.peak_reserved_bytes);
  if (m.capacity_bytes > 0) line += " of " + FormatMemory(m.capacity_bytes);
  line += " at " + FormatDuration(m.peak_ts_ns - origin);
  ImGui::TextUnformatted(line.c_str());
  ImGui::SameLine();
  if (ImGui::SmallButton("Show peak")) {
    // A window of 1% of the trace around the peak, at least 1 ms.
    const DurNs half = std::max<DurNs>(state.trace()->span().duration_ns() / 200, 500'000);
    state.FitRange(TimeRange{m.peak_ts_ns - half, m.peak_ts_ns + half}, 0);
  }
  std::string counts = std::to_string(m.allocations) + " allocs, " + std::to_string(m.frees) + " frees";
  if (m.unmatched_frees > 0) counts += ", " + std::to_string(m.unmatched_frees) + " freed but allocated before the capture";
  if (m.never_freed > 0) counts += ", " + std::to_string(m.never_freed) + " never freed";
  if (m.growth_per_step_bytes != 0) {
    counts += "; " + std::string(m.growth_per_step_bytes > 0 ? "+" : "") +
              FormatMemory(static_cast<int64_t>(m.growth_per_step_bytes)) + " per step";
  }
  if (m.ooms > 0) counts += "; " + std::to_string(m.ooms) + " out-of-memory events";
  ImGui::TextDisabled("%s", counts.c_str());
  if (!m.attributed) ImGui::TextWrapped("Note: %s.", analysis::kNoAttributionNote);
}

void MemoryPanel::DrawLiveAtPeak(const ReportMemory& m) {
  // Without addresses nothing pairs allocations with frees: only their sizes
  // by op are known, as a share of everything allocated in the capture.
  const std::vector<analysis::ReportMemoryOp>& ops = m.attributed ? m.top_at_peak : m.allocated_by_op;
  const int64_t whole = m.attributed ? m.peak_allocated_bytes : m.allocated_bytes;
  ImGui::TextUnformatted(m.attributed ? "Live at the peak, by operator" : "Allocated in the capture, by operator");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##live", 4, flags)) return;
  ImGui::TableSetupColumn("Operator", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("Size", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Count", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("Share", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
  for (const analysis::ReportMemoryOp& op : ops) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const std::string name = op.name.empty() ? "(no enclosing op)" : std::string(op.name);
    ImGui::TextUnformatted(name.c_str());
    if (ImGui::IsItemHovered() && name.size() > 30) WrappedTooltip("%s", name.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(FormatMemory(op.bytes).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%" PRIu64, op.count);
    ImGui::TableNextColumn();
    if (whole > 0) {
      ImGui::Text("%.1f%%", 100.0 * static_cast<double>(op.bytes) / static_cast<double>(whole));
    } else {
      ImGui::TextDisabled("-");
    }
  }
  ImGui::EndTable();
}

void MemoryPanel::DrawAllocations(ViewState& state) {
  const analysis::Report& report = state.data->analysis.report;
  ImGui::SetNextItemWidth(220 * UiScale());
  ImGui::InputTextWithHint("##alloc_filter", "Filter operator names", filter_, sizeof filter_);
  // Keyed by generation, not address: a new trace can be built where a freed one was.
  if (built_generation_ != state.data->generation || built_filter_ != filter_ || built_pool_ != pool_) {
    built_generation_ = state.data->generation;
    built_filter_ = filter_;
    built_pool_ = pool_;
    rows_ = FilterAllocations(report, pool_, built_filter_);
    SortAllocations(report, sort_column_, sort_ascending_, &rows_);
  }
  ImGui::SameLine();
  ImGui::Text("%zu allocations", rows_.size());
  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV;
  if (!BeginSortableTable("##alloc_table", kAllocationColumns, flags, 1)) return;
  if (int column = 0; TakeSortChange(&column, &sort_ascending_)) {
    sort_column_ = static_cast<AllocationColumn>(column);
    SortAllocations(report, sort_column_, sort_ascending_, &rows_);
  }
  const TimeNs origin = state.trace()->span().start_ns;
  const bool paired = report.memory[pool_].attributed;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows_.size()));
  while (clipper.Step()) {
    for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
      const uint32_t i = rows_[r];
      const ReportAllocation& a = report.allocations[i];
      const bool alloc_open = a.alloc_ns == kAllocBeforeCapture, free_open = a.free_ns == kStillOpen;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      const std::string name = a.op.empty() ? "(no enclosing op)" : std::string(a.op);
      if (ImGui::Selectable(name.c_str(), selected_ == static_cast<int64_t>(i), ImGuiSelectableFlags_SpanAllColumns)) {
        selected_ = static_cast<int64_t>(i);
        // Frame the allocation's lifetime (clipped to the trace for open ends).
        const TimeRange span = state.trace()->span();
        const TimeNs begin = alloc_open ? span.start_ns : a.alloc_ns;
        const TimeNs end = free_open ? span.end_ns : std::max(a.free_ns, begin + 1000);
        state.FitRange(TimeRange{begin, end});
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatMemory(a.bytes).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(TimeCell(a.alloc_ns, origin, alloc_open, "before capture").c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(TimeCell(a.free_ns, origin, free_open, paired ? "open" : "unknown").c_str());
      ImGui::TableNextColumn();
      if (alloc_open || free_open) {
        ImGui::TextDisabled("-");
      } else {
        ImGui::TextUnformatted(FormatDuration(a.free_ns - a.alloc_ns).c_str());
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace stepline::ui
