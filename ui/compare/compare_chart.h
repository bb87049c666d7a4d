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
  int DrawSeriesRow(const analysis::CompareSide& side, const std::vector<StepBucket>& buckets, size_t steps_total,
                    const Rect& r, DurNs scale_ns, int aligned_step, uint32_t run_color, const char* run);
  std::vector<StepBucket> buckets_[2];  // scratch, rebuilt per frame
  bool hovered_ = false;                // the chart's button, this frame
};

}  // namespace stepline::ui
