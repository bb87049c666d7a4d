// CompareChart: A's and B's mean step side by side as stacked bars (the step
// chart's category colours), and the per-step series of both runs as two
// rows of stacked bars on one time scale, step k of A above step k of B.
// Steps fold into buckets when a bar would be under theme::kChartMinBarPx,
// so 1..10,000 steps stay readable. A click on a step aligns the timelines
// on it.
#pragma once

#include <vector>

#include "model/analysis/compare.h"
#include "ui/step_chart.h"

namespace stepline::ui {

// Consecutive buckets of `per` steps of one run (the last may hold fewer),
// each the mean of its steps (StepBucket as in the step chart).
std::vector<StepBucket> BucketCompareSide(const analysis::CompareSide& side, size_t per);
// The mean step of a run as one bucket (its per-step breakdown means).
StepBucket MeanCompareBucket(const analysis::CompareSide& side);

// The steps to number on the series' x axis: every `stride`-th from 0, the
// stride a 1-2-5 x 10^k number of steps so that labels `min_label_px` wide
// do not crowd across `plot_w` px of `steps` steps (empty: no steps).
std::vector<uint32_t> StepAxisLabels(size_t steps, float plot_w, float min_label_px);

class CompareChart {
 public:
  // Draws into width x height at the cursor. `step_a` / `step_b` are the
  // aligned steps (highlighted). Returns the step clicked this frame, else -1.
  int Draw(const analysis::Comparison& c, int step_a, int step_b, float width, float height);

 private:
  struct Rect {
    float x0, y0, x1, y1;
  };
  void DrawMeanBars(const analysis::Comparison& c, const Rect& r);
  // One run's row: its letter and y axis in the left `gutter` px of `r`, the
  // bars right of it. Returns the step hovered, else -1.
  int DrawSeriesRow(const analysis::CompareSide& side, const std::vector<StepBucket>& buckets, size_t steps_total,
                    const Rect& r, float gutter, DurNs scale_ns, int aligned_step, uint32_t run_color, const char* run);
  // Gridlines and time labels at multiples of `tick_ns` over the plot area
  // of one row, labels right-aligned to its left edge and kept inside it.
  void DrawRowAxis(const Rect& plot, DurNs scale_ns, DurNs tick_ns);
  // Step numbers under the bottom row's plot area.
  void DrawStepAxis(const Rect& plot, size_t steps_total);
  std::vector<StepBucket> buckets_[2];  // scratch, rebuilt per frame
  bool hovered_ = false;                // the chart's button, this frame
  DurNs tick_ns_ = 0;                   // the series' y gridline step, this frame
};

}  // namespace stepline::ui
