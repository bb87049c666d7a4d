// MemoryPanel: per memory pool (device or allocator) the peak
// allocated and reserved and when it happened (a button frames it on the
// timeline), the allocations live at the peak grouped by operator, and the
// full allocation table (sortable, filtered by op name, exported as CSV).
// Reads Report::memory and Report::allocations of the trace's AnalysisData.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/analysis/report.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

enum class AllocationColumn : uint8_t { kOp = 0, kBytes, kAllocated, kFreed, kLifetime };
inline constexpr int kAllocationColumnCount = 5;

// Indices into report.allocations of pool `pool` whose op name contains
// `filter` (case-insensitive), in report order.
std::vector<uint32_t> FilterAllocations(const analysis::Report& report, uint32_t pool, const std::string& filter);
// Sorts by `column`; allocations open at either end sort as the earliest
// alloc / the latest free and the longest lifetime. Ties by report order.
void SortAllocations(const analysis::Report& report, AllocationColumn column, bool ascending,
                     std::vector<uint32_t>* rows);
// The rows as a table: device, op, addr, bytes, alloc_ns, free_ns, lifetime_ns
// (open ends empty). The one allocation-table writer: the window's Save as
// CSV and `stepline report --csv`'s memory.csv (every row) both use it.
TextTable AllocationsTable(const analysis::Report& report, const std::vector<uint32_t>& rows);
// "2.09 GB": decimal units, as the report's sentences.
std::string FormatMemory(int64_t bytes);

class MemoryPanel {
 public:
  void Draw(ViewState& state);
  void MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const;
  // The allocation table's rows (indices into report.allocations), as last drawn.
  const std::vector<uint32_t>& rows() const { return rows_; }

 private:
  void DrawSummary(ViewState& state, const analysis::ReportMemory& m);
  void DrawLiveAtPeak(const analysis::ReportMemory& m);
  void DrawAllocations(ViewState& state);

  uint32_t pool_ = 0;
  char filter_[128] = {};
  std::vector<uint32_t> rows_;
  uint64_t built_generation_ = 0;  // TimelineData::generation the rows are for; 0 none
  std::string built_filter_;
  uint32_t built_pool_ = UINT32_MAX;
  AllocationColumn sort_column_ = AllocationColumn::kBytes;
  bool sort_ascending_ = false;
  int64_t selected_ = -1;  // index into report.allocations
};

}  // namespace stepline::ui
