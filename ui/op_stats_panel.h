// OpStatsPanel: the TF-stats style table of ops (host ops, kernels, copies,
// memsets): sortable by every column, text filter, clipped for 100k rows,
// a top-10-by-self-time bar chart; selecting a row highlights every
// occurrence on the timeline (ViewState::op_occurrences) and steps through them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/analysis/report.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

enum class OpColumn : uint8_t {
  kSide = 0, kKind, kName, kCount, kTotal, kAvg, kMin, kMax, kSelf, kPercent, kCumulative,
  kFlops, kTflops, kIntensity, kBound  // efficiency (docs/efficiency.md); unknown sorts lowest
};
inline constexpr int kOpColumnCount = 15;

enum class OpSide : uint8_t { kAll = 0, kHost, kDevice };

// Indices into report.ops whose name contains `filter` (case-insensitive)
// and whose side matches, in report order.
std::vector<uint32_t> FilterOps(const analysis::Report& report, const std::string& filter, OpSide side);
// Sorts `rows` by `column`; ties by report order, so the result is total.
void SortOps(const analysis::Report& report, OpColumn column, bool ascending, std::vector<uint32_t>* rows);
// The `n` rows of report.ops with the most self time, largest first.
std::vector<uint32_t> TopOpsBySelf(const analysis::Report& report, size_t n);

class OpStatsPanel {
 public:
  void Draw(ViewState& state);
  // The rows on show (indices into report.ops), as of the last Draw().
  const std::vector<uint32_t>& rows() const { return rows_; }
  // Right-click items: the rows on show (filter and sort) as TSV / CSV.
  void MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const;

 private:
  void DrawToolbar(ViewState& state);
  void DrawTable(ViewState& state);
  void DrawStepMarkers(ViewState& state);
  void DrawTopChart(ViewState& state, float width);
  void Select(ViewState& state, uint32_t op);

  char filter_[128] = {};
  OpSide side_ = OpSide::kAll;
  bool show_step_markers_ = false;  // list Report::step_markers above the ops
  std::vector<uint32_t> rows_;
  uint64_t built_generation_ = 0;  // TimelineData::generation the rows are for; 0 none
  std::string built_filter_;
  OpSide built_side_ = OpSide::kAll;
  OpColumn sort_column_ = OpColumn::kTotal;
  bool sort_ascending_ = false;
  int32_t selected_op_ = -1;  // index into report.ops
  std::vector<uint32_t> top_;  // TopOpsBySelf(report, 10) for top_generation_
  uint64_t top_generation_ = 0;
};

}  // namespace stepline::ui
