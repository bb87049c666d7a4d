// KernelPanel: GPU kernels, by default one row per kernel name (its totals
// agree with Op stats) with its launch configurations as sub-rows; or one
// row per CUDA / HIP graph with its kernels below; or one row per configuration (name, launching op, count, total/avg/min/max,
// grid, block, registers, shared memory, occupancy where the trace has
// them). Sortable, filtered; a click highlights the kernel's occurrences on
// the timeline.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/analysis/report.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

enum class KernelColumn : uint8_t {
  kName = 0, kOp, kCount, kTotal, kAvg, kMin, kMax, kGrid, kBlock, kRegisters, kSharedMemory, kOccupancy,
  kBound,  // compute / memory by the kernel's name (docs/efficiency.md)
  kGraph,  // the CUDA / HIP graph (and node) it was replayed from
};
inline constexpr int kKernelColumnCount = 14;

// Indices into report.kernels whose kernel or launching-op name contains
// `filter` (case-insensitive), in report order.
std::vector<uint32_t> FilterKernels(const analysis::Report& report, const std::string& filter);
// Sorts by `column` (grid/block by thread count); ties by report order.
void SortKernels(const analysis::Report& report, KernelColumn column, bool ascending, std::vector<uint32_t>* rows);
// One kernel name and its launch configurations (indices into
// report.kernels, in the order given). `total` sums count and times over
// them (avg = total / count, min and max over all); its configuration
// fields are the configurations' when they all agree, else unknown.
struct KernelGroup {
  analysis::ReportKernel total;
  std::vector<uint32_t> configs;
  bool same_op = true;  // every configuration has the same launching op
  std::string label;    // the row's name when not a kernel's ("graph 3 (12 kernels)")
};
// Groups `rows` (already filtered and sorted) by kernel name; groups sorted
// by `column` over their totals, ties in order of first appearance.
std::vector<KernelGroup> GroupKernelsByName(const analysis::Report& report, const std::vector<uint32_t>& rows,
                                            KernelColumn column, bool ascending);
// Groups `rows` by the CUDA / HIP graph their kernels were replayed from
// (one group per graph id, its kernel rows below it; kernels outside graphs
// form the last group, "outside graphs"). A graph's total is the time of its
// kernels over all its replays. Sorted as GroupKernelsByName.
std::vector<KernelGroup> GroupKernelsByGraph(const analysis::Report& report, const std::vector<uint32_t>& rows,
                                             KernelColumn column, bool ascending);
// How the kernels table groups its rows: by kernel name (the default), by
// graph (offered when the trace has graph replays), or not at all.
enum class KernelGrouping : uint8_t { kByName, kByGraph, kNone };
// "graph 3 node 12", "graph 3", or "" outside graphs.
std::string KernelGraphLabel(const analysis::ReportKernel& k);
// "128x1x1", or "-" when unknown.
std::string FormatDim3(const std::array<int64_t, 3>& d);

class KernelPanel {
 public:
  void Draw(ViewState& state);
  // The rows on show (indices into report.kernels), as of the last Draw().
  const std::vector<uint32_t>& rows() const { return rows_; }
  // Right-click items: the rows on show (filter and sort) as TSV / CSV.
  void MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const;

 private:
  void DrawTable(ViewState& state);
  void DrawGroupedTable(ViewState& state);
  void Regroup(const analysis::Report& report);
  void DrawKernelCells(const analysis::ReportKernel& k, const std::string& op) const;
  void Select(ViewState& state, uint32_t kernel);

  char filter_[128] = {};
  std::vector<uint32_t> rows_;
  KernelGrouping grouping_ = KernelGrouping::kByName;
  bool grouping_chosen_ = false;     // picked in the combo: kept across traces
  std::vector<KernelGroup> groups_;  // rows_ grouped as grouping_ says (empty for kNone)
  uint64_t built_generation_ = 0;    // TimelineData::generation the rows are for; 0 none
  std::string built_filter_;
  KernelColumn sort_column_ = KernelColumn::kTotal;
  bool sort_ascending_ = false;
  int32_t selected_ = -1;  // index into report.kernels
};

}  // namespace stepline::ui
