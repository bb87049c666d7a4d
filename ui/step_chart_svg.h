// The step-time chart as a standalone SVG document for reports: the same
// buckets (StepChart's BucketSteps) and category colours as the overview's
// chart, a y axis in time units, the mean bar and line, and a legend of the
// categories that occur. Pure text; the app writes the file.
#pragma once

#include <string>

#include "model/analysis/report.h"
#include "ui/svg_document.h"  // XmlEscape, for callers building their own SVG

namespace stepline::ui {

struct StepChartSvgOptions {
  int width = 960, height = 420;  // px (the viewBox)
  std::string title;              // e.g. "Step time (GPU 0): trace.json.gz"
};

// Each step segment is one <rect class="seg"> (one per bucket and category
// with time), the mean bar's are <rect class="mean-seg">. An empty report
// gives a valid SVG with a "no steps" note.
std::string BuildStepChartSvg(const analysis::Report& report, const StepChartSvgOptions& options);

}  // namespace stepline::ui
