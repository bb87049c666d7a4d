// IdleGapsPanel: every GPU idle gap (device, start, duration, step, cause,
// blamed host events) with a cause / minimum-duration filter, a histogram of
// durations, and click-to-link: the timeline frames the gap, selects the
// blamed event and draws the arrow to the kernel that ended it. The filters
// live in ViewState (gap_cause_mask, gap_min_dur_ns): overview charts set the
// cause, and the timeline's gap shading hides what the list hides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ui/analysis_data.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

enum class GapColumn : uint8_t { kDevice = 0, kStart, kDuration, kStep, kCause, kBlamed };

// Gap indices passing the filter, in AnalysisData order.
std::vector<uint32_t> FilterGaps(const AnalysisData& a, uint32_t cause_mask, DurNs min_dur_ns);
// Sorts `rows` (gap indices) by `column`; ties by start, so the order is total.
void SortGaps(const Trace& trace, const AnalysisData& a, GapColumn column, bool ascending, std::vector<uint32_t>* rows);

// Log-spaced histogram of gap durations: edges[i]..edges[i+1] holds counts[i].
struct DurationHistogram {
  std::vector<DurNs> edges;     // bins + 1 entries, ascending
  std::vector<uint32_t> counts;
};
DurationHistogram ComputeDurationHistogram(const AnalysisData& a, const std::vector<uint32_t>& rows, int bins);

// The widest value of each fixed column over every gap (current font), so
// the columns fit them from the first frame; the cause with its swatch.
struct GapColumnSamples {
  std::string device, start, duration, step, cause;
};
GapColumnSamples WidestGapValues(const Trace& trace, const AnalysisData& a);

class IdleGapsPanel {
 public:
  void Draw(ViewState& state);
  // The rows on show (indices into analysis.gaps), as of the last Draw().
  const std::vector<uint32_t>& rows() const { return rows_; }
  // Right-click items: the gaps listed (filter and sort) as TSV / CSV.
  void MenuItems(const ViewState& state, std::vector<ExportRequest>* exports) const;

 private:
  void DrawFilters(ViewState& state);
  void DrawHistogram(const ViewState& state, float width, float height);
  void DrawTable(ViewState& state);
  void Refresh(const ViewState& state);

  std::vector<uint32_t> rows_;  // filtered, sorted gap indices
  GapColumnSamples samples_;    // for the trace of built_generation_
  DurationHistogram histogram_;
  // What rows_ was built for; a change rebuilds it.
  uint64_t built_generation_ = 0;  // TimelineData::generation the rows are for; 0 none
  uint32_t built_mask_ = 0;
  DurNs built_min_ns_ = -1;
  GapColumn sort_column_ = GapColumn::kDuration;  // longest first: the gaps worth a look
  bool sort_ascending_ = false;
  bool sort_dirty_ = true;
};

}  // namespace stepline::ui
