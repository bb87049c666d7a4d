// Sortable ImGui tables: the column setup and sort-spec reading that every
// analysis table (ops, kernels, gaps, range) shares. Sorting itself stays
// with each panel: it sorts an index vector, never the model.
#pragma once

#include <cstdint>
#include <span>

namespace stepline::ui {

// How a column sizes and sorts; bits.
enum ColumnStyle : uint8_t {
  kColumnFixed = 0,
  kColumnStretch = 1,       // takes the spare width
  kColumnDescending = 2,    // first click sorts largest first (times, counts)
  kColumnDefaultSort = 4,   // the sort before the user picks one
};

struct SortableColumn {
  const char* name;
  uint8_t style = kColumnFixed;  // ColumnStyle bits
  float weight = 0;              // stretch columns: share of the spare width (0 = 1)
};

// Declares `columns` (user id = index) with a frozen header row and draws
// the header. Call right after ImGui::BeginTable.
void SetupSortableColumns(std::span<const SortableColumn> columns);
// True once after the user changed the sort: the column's index and the
// direction. Call after SetupSortableColumns, inside the table.
bool TakeSortChange(int* column, bool* ascending);

}  // namespace stepline::ui
