// RanksView: every rank of a distributed run side by side: the
// straggler sentence, a sortable table (rank, host, steps, step mean,
// compute, collective wait, collective transfer, idle by cause, late, clock
// offset; copied as CSV), one stacked bar per rank in the step chart's
// colours with the collective wait hatched, and a ranks x steps heat map of
// lateness, and the per-rank timeline (ranks_timeline.h). Rows, sorting, CSV
// and bar segments are pure functions, tested without a window.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/analysis/ranks_analysis.h"
#include "ui/ranks/ranks_timeline.h"
#include "ui/ranks/ranks_view_input.h"

namespace stepline::ui {

// One table row: per-step figures of one rank.
struct RanksTableRow {
  int32_t rank = -1;
  std::string host, path;
  int64_t steps = 0;
  DurNs step_mean_ns = 0, compute_ns = 0, wait_ns = 0, transfer_ns = 0, idle_ns = 0;
  analysis::CauseNs idle_by_cause{};
  DurNs late_ns = 0, clock_offset_ns = 0;
  bool straggler = false;
  analysis::CategoryNs breakdown{};  // per step, for the bar
  std::vector<DurNs> late_by_step;   // for the heat map
};

enum class RanksColumn : uint8_t {
  kRank = 0, kHost, kSteps, kStepMean, kCompute, kWait, kTransfer, kIdle, kIdleTopCause, kLate, kOffset
};
inline constexpr int kRanksColumnCount = 11;
const char* RanksColumnName(RanksColumn c);

std::vector<RanksTableRow> RanksTableRows(const RanksViewInput& input);
// Stable sort by `column`; ties by rank.
void SortRanksRows(std::vector<RanksTableRow>* rows, RanksColumn column, bool ascending);
// The table as CSV (times in ns), the rows in the given order; idle by cause
// as one column per cause.
std::string RanksTableCsv(std::span<const RanksTableRow> rows);

// One segment of a rank's stacked bar: breakdown categories in TimeCategory
// order, with `collective` split into wait (hatched) and transfer.
struct RankBarSegment {
  DurNs ns = 0;
  uint32_t color = 0;
  bool hatched = false;
  const char* label = "";
};
std::vector<RankBarSegment> RankBarSegments(const RanksTableRow& row);  // sums to the row's breakdown total

// The heat map's colour of a lateness: the background at 0, towards red as
// `late` reaches +scale (arrives after the median), towards blue at -scale.
uint32_t LatenessColor(DurNs late, DurNs scale);

class RanksView {
 public:
  // Draws into the current ImGui window's remaining space. Returns the path
  // of a rank the user double-clicked (to open it alone), else nothing.
  std::optional<std::string> Draw(const RanksViewInput& input);
  // The run directory the user chose in the run picker (input.runs) since
  // the last call, once; the caller loads that run's ranks.
  std::optional<std::string> TakeRunChoice() { return std::exchange(run_choice_, std::nullopt); }
  // Shows the run picker's list (as its "Other runs..." button does).
  void OpenRunList() { run_list_open_ = true; }
  RanksTimeline& timeline() { return timeline_; }

 private:
  void DrawTable(std::vector<RanksTableRow>& rows, float height, std::optional<std::string>* open);
  void DrawBars(const std::vector<RanksTableRow>& rows, float width, float height);
  // Ranks (rows, in table order) x steps (columns, bucketed to >= 2 px).
  void DrawHeatMap(const std::vector<RanksTableRow>& rows, float width, float height);
  void DrawRunPicker(const RanksViewInput& input);
  RanksTimeline timeline_;
  std::optional<std::string> run_choice_;
  bool run_list_open_ = false;
  RanksColumn sort_column_ = RanksColumn::kRank;
  bool sort_ascending_ = true;
  bool rows_reported_ = false;  // the test events log has placed the first row
};

}  // namespace stepline::ui
