// RangePanel: the aggregate table of the selected time range (name, count,
// total, self, average), sortable by every column, clipped for big tables.
#pragma once

#include <optional>
#include <vector>

#include "model/analysis/range_aggregation.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

class RangePanel {
 public:
  void Draw(ViewState& state);
  // Right-click items: the aggregate rows in their shown order as TSV / CSV
  // (nothing while no range is selected).
  void MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const;

 private:
  std::optional<TimeRange> computed_for_;  // the range `rows_` belongs to
  uint64_t computed_generation_ = 0;       // TimelineData::generation of the rows; 0 none
  std::vector<analysis::RangeAggregateRow> rows_;
  std::vector<size_t> order_;              // sorted view of rows_ (never sort the data)
};

}  // namespace stepline::ui
