// OpsDiffTable: one row per (op name, kind) of either run: A count, B count,
// A total, B total, delta and delta per step; sortable by every column
// (default: largest |delta| first), a text filter, rows only in A or only in
// B marked, clipped for 100k rows. Filter and sort are pure and tested; the
// table sorts an index vector, never the Comparison.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/compare.h"

namespace stepline::ui {

enum class DiffColumn : uint8_t {
  kPresence = 0,
  kKind,
  kName,
  kACount,
  kBCount,
  kATotal,
  kBTotal,
  kDelta,
  kDeltaPerStep
};
inline constexpr int kDiffColumnCount = 9;

// Indices into `rows` whose name contains `filter` (case-insensitive), in order.
std::vector<uint32_t> FilterDiffRows(const std::vector<analysis::OpDiffRow>& rows, std::string_view filter);
// Sorts `order` by `column`. kDelta sorts by the size of the change |delta|
// (what changed most), kDeltaPerStep by its signed value (regressions at one
// end, improvements at the other). Ties keep index order, so the result is total.
void SortDiffRows(const std::vector<analysis::OpDiffRow>& rows, DiffColumn column, bool ascending,
                  std::vector<uint32_t>* order);
// "", "only A", "only B".
const char* PresenceLabel(analysis::Presence p);

class OpsDiffTable {
 public:
  struct Event {
    bool normalize_changed = false;  // the checkbox flipped (new value in *normalize)
    int selected = -1;               // a row was selected this frame: index into Comparison::ops
    bool cleared = false;            // the selection was cleared
  };
  // `highlight_counts` are the occurrences highlighted in A and B (shown in
  // the toolbar while a row is selected).
  Event Draw(const analysis::Comparison& c, bool* normalize, const size_t highlight_counts[2]);
  // Forgets rows and selection (the Comparison changed).
  void Reset();
  int selected() const { return selected_; }
  void Select(int row) { selected_ = row; }
  const std::vector<uint32_t>& visible_rows() const { return order_; }

 private:
  void Rebuild(const analysis::Comparison& c);
  void DrawToolbar(const analysis::Comparison& c, bool* normalize, const size_t highlight_counts[2], Event* ev);
  void DrawTable(const analysis::Comparison& c, Event* ev);

  char filter_[128] = {};
  std::string built_filter_;
  bool built_ = false;
  std::vector<uint32_t> order_;
  size_t only_a_ = 0, only_b_ = 0;  // among the filtered rows
  DiffColumn sort_column_ = DiffColumn::kDelta;
  bool sort_ascending_ = false;
  int selected_ = -1;
};

}  // namespace stepline::ui
