// Sortable ImGui tables: the column setup and sort-spec reading that every
// analysis table (ops, kernels, gaps, range) shares, and the width policy
// that keeps name columns readable. Sorting itself stays with each panel: it
// sorts an index vector, never the model.
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
  // Fixed: at least as wide as `sample` from the first frame. Auto-fit sees
  // only the rows on screen then; a longer value scrolled to later was cut
  // ("717.6 m", "Host c"). Give the widest value the column can hold.
  kColumnSampleWidth = 8,
};

// Typical widest cells, for SortableColumn::sample.
inline constexpr const char* kSampleDuration = "999.9 ms";
inline constexpr const char* kSampleCount = "999999";
inline constexpr const char* kSamplePercent = "100.0%";

struct SortableColumn {
  const char* name;
  uint8_t style = kColumnFixed;  // ColumnStyle bits
  float weight = 0;              // stretch columns: share of the spare width (0 = 1)
  // Stretch columns: the narrowest readable width, in font heights (about
  // two characters each). Below it the table scrolls sideways instead. With
  // several stretch columns keep min_em in proportion to weight: scrolled,
  // they share the minimum width by weight.
  float min_em = 0;
  // Fixed columns: a typical widest cell; they auto-fit to their content,
  // and this only estimates that width before it is known (nullptr: the
  // header is the widest).
  const char* sample = nullptr;
};

// Width in px the columns need at the current font: fixed columns at their
// header or sample, stretch columns at min_em, with cell padding.
float SortableTableMinWidth(std::span<const SortableColumn> columns);

// BeginTable for `columns` (ImGuiTableFlags `flags`, plus ScrollX) and
// SetupSortableColumns. While SortableTableMinWidth fits in the space
// available the table fills it as a non-scrolling one would; narrower, it
// keeps that width and scrolls sideways with the leftmost `frozen_columns`
// (the names) pinned, so a stretch column never collapses to a character.
// Returns BeginTable's result; call ImGui::EndTable when true.
bool BeginSortableTable(const char* id, std::span<const SortableColumn> columns, int flags, int frozen_columns);

// Declares `columns` (user id = index) with a frozen header row and the
// leftmost `frozen_columns` frozen, and draws the header. Call right after
// ImGui::BeginTable.
void SetupSortableColumns(std::span<const SortableColumn> columns, int frozen_columns = 0);
// True once after the user changed the sort: the column's index and the
// direction. Call after SetupSortableColumns, inside the table.
bool TakeSortChange(int* column, bool* ascending);

// Width of a chart drawn beside a table in `avail` px: `preferred` px or
// `share` of avail, whichever is less, but shrinking (down to `min` px) so
// the table keeps `table_min` px. Keeps `min` even when the table then
// scrolls (the chart stays readable too), unless `share` of avail is less.
float SideChartWidth(float avail, float table_min, float preferred, float share, float min);

}  // namespace stepline::ui
