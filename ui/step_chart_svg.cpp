// Step chart to SVG; see step_chart_svg.h. Layout, top to bottom: title,
// plot (axis labels at the left, mean bar at the right), x label, legend.
#include "ui/step_chart_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "ui/analysis_format.h"
#include "ui/step_chart.h"
#include "ui/svg_document.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

using analysis::kTimeCategoryCount;

using namespace svg_palette;  // the palette reads as plain words here

std::string BuildStepChartSvg(const analysis::Report& report, const StepChartSvgOptions& options) {
  const double width = std::max(200, options.width), height = std::max(150, options.height);
  const std::string title = options.title.empty() ? "Step time" : options.title;
  SvgDocument svg(width, height, title);

  const std::span<const analysis::ReportStep> steps(report.steps);
  const StepBucket mean = MeanBucket(steps);
  if (steps.empty() || mean.mean_dur_ns <= 0) {
    svg.Text(width / 2, height / 2, "No steps in this trace", kMuted, "middle");
    return svg.Finish();
  }
  // Legend rows first: the plot takes what is left.
  std::vector<int> present;
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    if (report.breakdown_total[c] > 0) present.push_back(c);
  }
  const double left = 78, right = 16, top = 40, mean_w = 34, mean_sep = 18;
  struct LegendItem {
    int category;
    double x, y;
  };
  std::vector<LegendItem> legend;
  double lx = left, ly = 0;
  for (int c : present) {
    const double w = 14 + kCharPx * static_cast<double>(std::string_view(CategoryLabel(
                                         static_cast<analysis::TimeCategory>(c))).size()) + 18;
    if (lx + w > width - right && lx > left) {
      lx = left;
      ly += 18;
    }
    legend.push_back({c, lx, ly});
    lx += w;
  }
  const double legend_h = ly + 18;
  const double plot_x0 = left, plot_x1 = width - right - mean_w - mean_sep;
  const double plot_y0 = top, plot_y1 = height - 10 - legend_h - 22;
  const std::vector<StepBucket> buckets = BucketSteps(steps, static_cast<float>(plot_x1 - plot_x0),
                                                      theme::kChartMinBarPx);
  DurNs max_ns = mean.mean_dur_ns;
  for (const StepBucket& b : buckets) max_ns = std::max(max_ns, b.mean_dur_ns);
  // Round the axis up to a whole tick so the top label is a round number.
  const DurNs tick = NiceTickStep(max_ns, 4);
  const DurNs axis_ns = (max_ns + tick - 1) / tick * tick;
  const double px_per_ns = (plot_y1 - plot_y0) / static_cast<double>(axis_ns);

  for (DurNs t = 0; t <= axis_ns; t += tick) {
    const double y = plot_y1 - static_cast<double>(t) * px_per_ns;
    if (t > 0) svg.Line(plot_x0, y, width - right, y, kGrid);
    svg.Text(plot_x0 - 6, y + 4, t == 0 ? "0" : FormatTickLabel(t, tick), kMuted, "end");
  }
  // As in the app: a few steps fill the width, one bar up to a share of it.
  const BarLayout layout = StepBarLayout(buckets.size(), static_cast<float>(plot_x1 - plot_x0), 1.f);
  const double bar_w = layout.width, gap = layout.gap;
  svg.Raw("<g class=\"steps\">\n");
  for (size_t i = 0; i < buckets.size(); ++i) {
    svg.StackedBar("seg", buckets[i].mean_ns, plot_x0 + bar_w * static_cast<double>(i), bar_w - gap, plot_y1,
             px_per_ns);
  }
  svg.Raw("</g>\n<g class=\"mean\">\n");
  const double mean_x = plot_x0 + bar_w * static_cast<double>(buckets.size()) + mean_sep;
  svg.StackedBar("mean-seg", mean.mean_ns, mean_x, mean_w, plot_y1, px_per_ns);
  svg.Raw("</g>\n");
  const double mean_y = plot_y1 - static_cast<double>(mean.mean_dur_ns) * px_per_ns;
  svg.Line(plot_x0, mean_y, mean_x + mean_w, mean_y, kInk, " stroke-dasharray=\"4 3\"");
  svg.Line(plot_x0, plot_y0, plot_x0, plot_y1, kMuted);
  svg.Line(plot_x0, plot_y1, mean_x + mean_w, plot_y1, kMuted);
  svg.Text(mean_x + mean_w / 2, plot_y1 + 15, "mean", kMuted, "middle");
  const std::string x_label = buckets.size() == steps.size()
                                  ? std::to_string(steps.size()) + " steps"
                                  : std::to_string(steps.size()) + " steps, " + std::to_string(buckets.front().count()) +
                                        " per bar (mean)";
  svg.Text(plot_x0, plot_y1 + 15, x_label + ", mean step " + FormatDuration(mean.mean_dur_ns), kMuted);
  const double legend_y0 = plot_y1 + 30;
  for (const LegendItem& item : legend) {
    svg.Rect("swatch", item.x, legend_y0 + item.y, 10, 10, SvgHex(theme::kCategoryColors[item.category]));
    svg.Text(item.x + 14, legend_y0 + item.y + 9.5, CategoryLabel(static_cast<analysis::TimeCategory>(item.category)),
             kInk);
  }
  return svg.Finish();
}

}  // namespace stepline::ui
