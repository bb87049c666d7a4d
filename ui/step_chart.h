// StepChart: the stacked step-time chart of the overview (one bar per step,
// coloured by breakdown category, a mean bar beside it). Steps are grouped
// into buckets when a bar would be narrower than theme::kChartMinBarPx, so
// 10,000 steps stay readable; BucketSteps is pure and tested. Outlier steps
// get a tick above their bar; a toggle switches to a histogram of
// the step durations with the p50/p90/p99 lines (BuildStepHistogram, pure).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "model/analysis/report.h"
#include "ui/view_state.h"

namespace stepline::ui {

// One bar: the steps [first, end) of the report, their per-category time
// averaged over the bucket (a bucket of one step is that step).
struct StepBucket {
  uint32_t first = 0, end = 0;
  analysis::CategoryNs mean_ns{};  // sums to mean_dur_ns (up to rounding)
  DurNs mean_dur_ns = 0;
  DurNs min_dur_ns = 0, max_dur_ns = 0;
  uint32_t outliers = 0;  // outlier steps in the bucket (Report::outlier_steps)
  uint32_t count() const { return end - first; }
};

// Per step of `report`: 1 when it is an outlier step.
std::vector<uint8_t> OutlierMask(const analysis::Report& report);

// Steps per bar so that bars are at least min_bar_px wide across width_px
// (at least 1).
size_t StepsPerBucket(size_t steps, float width_px, float min_bar_px);
// Consecutive buckets of StepsPerBucket steps (the last may hold fewer).
std::vector<StepBucket> BucketSteps(std::span<const analysis::ReportStep> steps, float width_px, float min_bar_px,
                                    std::span<const uint8_t> outlier_mask = {});
// The mean of every step as one bucket.
StepBucket MeanBucket(std::span<const analysis::ReportStep> steps);
// The category drawn at height fraction `frac` (0 = bottom, 1 = top of the
// bar) of a bucket, stacking categories in TimeCategory order from the
// bottom; -1 when frac is above the bar.
int CategoryAtFraction(const StepBucket& b, double frac);
// A round 1-2-5 x 10^k time step giving at most about `intervals` gridlines
// up to `max_ns` (at least 1 ns).
DurNs NiceTickStep(DurNs max_ns, int intervals);

// The step-duration histogram: `counts[i]` steps with dur_ns in
// [lo_ns + i * bin_ns, lo_ns + (i + 1) * bin_ns), `outliers[i]` of them
// outlier steps. ceil(sqrt(steps)) bins, at most `max_bins`, at least 1; the
// longest step falls in the last bin.
struct StepHistogram {
  DurNs lo_ns = 0, bin_ns = 1;
  std::vector<uint32_t> counts, outliers;
  uint32_t max_count() const;
};
StepHistogram BuildStepHistogram(std::span<const analysis::ReportStep> steps, std::span<const uint8_t> outlier_mask,
                                 int max_bins);

// Where `bars` bars go across `plot_w` px: each `width` px wide (its gap
// included, so bar i starts at i * width) with `gap` px of it left blank.
// Bars fill the plot, up to theme::kChartMaxBarShare of it each; the gap
// grows with the bar. `scale` is the font scale (theme sizes are unscaled).
struct BarLayout {
  float width = 0, gap = 0;
};
BarLayout StepBarLayout(size_t bars, float plot_w, float scale);

class StepChart {
 public:
  // Draws the chart and its legend into `size` px at the cursor; a click on
  // a bar frames that step (or bucket) on the timeline.
  void Draw(ViewState& state, float width, float height);

 private:
  struct Rect {
    float x0, y0, x1, y1;
  };
  void DrawAxis(DurNs scale_ns, const Rect& plot, float label_x, float grid_x1);
  void DrawBar(const StepBucket& b, const Rect& r, DurNs scale_ns, bool hovered);
  void DrawTooltip(const ViewState& state, const StepBucket& b, int category, bool is_mean);
  void DrawOutlierTick(const StepBucket& b, const Rect& r, DurNs scale_ns);
  void DrawHistogram(const ViewState& state, const Rect& plot, float label_x);
  std::vector<StepBucket> buckets_;  // scratch, rebuilt per frame (steps or width may change)
};

// A wrapping legend of the breakdown categories with time in `a` (or in
// `b`, when given: the compare chart's two runs), in the chart colours.
void DrawCategoryLegend(const analysis::CategoryNs& a, const analysis::CategoryNs* b = nullptr);

}  // namespace stepline::ui
