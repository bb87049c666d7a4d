// The compare view's breakdown chart as a standalone SVG for reports: A's
// and B's mean step as stacked bars, then every step of A over every step of
// B, all on one time scale (so heights compare across runs), in the step
// chart's category colours, on white for printing. Pure text; the app writes
// the file.
#pragma once

#include <string>

#include "model/analysis/compare.h"

namespace stepline::ui {

struct CompareChartSvgOptions {
  int width = 960, height = 480;  // px (the viewBox)
  std::string title;              // e.g. "Step time: A a.json vs B b.json"
};

// Each step segment is one <rect class="seg-a"> / <rect class="seg-b"> (per
// bucket and category with time), the mean bars' are class="mean-seg". Runs
// without steps give a valid SVG with a "no steps" note.
std::string BuildCompareChartSvg(const analysis::Comparison& c, const CompareChartSvgOptions& options);

}  // namespace stepline::ui
