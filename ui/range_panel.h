// RangePanel: the aggregate table of the selected time range (name, count,
// total, self, average), sortable by every column, clipped for big tables.
#pragma once

#include <optional>
#include <vector>

#include "model/analysis/range_aggregation.h"
#include "ui/view_state.h"

namespace stepline::ui {

class RangePanel {
 public:
  void Draw(ViewState& state);

 private:
  std::optional<TimeRange> computed_for_;  // the range `rows_` belongs to
  const Trace* computed_trace_ = nullptr;
  std::vector<analysis::RangeAggregateRow> rows_;
  std::vector<size_t> order_;              // sorted view of rows_ (never sort the data)
};

}  // namespace stepline::ui
