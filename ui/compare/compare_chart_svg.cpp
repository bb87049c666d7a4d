// Compare chart to SVG; see compare_chart_svg.h. Layout, top to bottom:
// title; mean bars at the left, A's series over B's at the right, sharing one
// y scale with its axis labels; legend.
#include "ui/compare/compare_chart_svg.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "ui/analysis_format.h"
#include "ui/compare/compare_chart.h"
#include "ui/compare/compare_theme.h"
#include "ui/step_chart.h"
#include "ui/svg_document.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

using analysis::kTimeCategoryCount;

namespace {

using namespace svg_palette;  // the palette reads as plain words here

// The y axis of one plot: grid lines and labels every `tick`.
void Axis(SvgDocument* svg, double x0, double x1, double y0, double y1, DurNs axis_ns, DurNs tick) {
  const double px_per_ns = (y1 - y0) / static_cast<double>(axis_ns);
  for (DurNs t = 0; t <= axis_ns; t += tick) {
    const double y = y1 - static_cast<double>(t) * px_per_ns;
    if (t > 0) svg->Line(x0, y, x1, y, kGrid);
    svg->Text(x0 - 6, y + 4, t == 0 ? "0" : FormatTickLabel(t, tick), kMuted, "end", 10);
  }
  svg->Line(x0, y0, x0, y1, kMuted);
  svg->Line(x0, y1, x1, y1, kMuted);
}

}  // namespace

std::string BuildCompareChartSvg(const analysis::Comparison& c, const CompareChartSvgOptions& options) {
  const double width = std::max(300, options.width), height = std::max(200, options.height);
  const std::string title = options.title.empty() ? "Step time: A against B" : options.title;
  SvgDocument svg(width, height, title);
  const StepBucket means[2] = {MeanCompareBucket(c.a), MeanCompareBucket(c.b)};
  const size_t total = std::max(c.a.step_dur_ns.size(), c.b.step_dur_ns.size());
  if (total == 0 || std::max(means[0].mean_dur_ns, means[1].mean_dur_ns) <= 0) {
    svg.Text(width / 2, height / 2, "No steps in either run", kMuted, "middle");
    return svg.Finish();
  }
  // Legend: the categories either run has, wrapped to the width.
  std::vector<int> present;
  for (int k = 0; k < kTimeCategoryCount; ++k) {
    if (c.a.breakdown_mean[k] > 0 || c.b.breakdown_mean[k] > 0) present.push_back(k);
  }
  const double left = 70, right = 16, top = 44;
  double lx = left, ly = 0;
  std::vector<std::pair<double, double>> legend_at;
  for (int k : present) {
    const double w = 32 + kCharPx * std::string_view(CategoryLabel(static_cast<analysis::TimeCategory>(k))).size();
    if (lx + w > width - right && lx > left) lx = left, ly += 18;
    legend_at.push_back({lx, ly});
    lx += w;
  }
  const double plot_y1 = height - 24 - (ly + 18) - 18;
  // Mean bars, then the series rows, all on one scale.
  const double mean_x0 = left, mean_bar = 34, mean_x1 = mean_x0 + 2 * mean_bar + 30;
  const double series_x0 = mean_x1 + 70, series_x1 = width - right;
  const size_t per = StepsPerBucket(total, static_cast<float>(series_x1 - series_x0), theme::kChartMinBarPx);
  const std::vector<StepBucket> buckets[2] = {BucketCompareSide(c.a, per), BucketCompareSide(c.b, per)};
  DurNs max_ns = std::max(means[0].mean_dur_ns, means[1].mean_dur_ns);
  for (const auto& side : buckets) {
    for (const StepBucket& b : side) max_ns = std::max(max_ns, b.mean_dur_ns);
  }
  const DurNs tick = NiceTickStep(max_ns, 3);
  const DurNs axis_ns = (max_ns + tick - 1) / tick * tick;
  // Mean bars span the whole height; each series row half of it.
  const double full_px = (plot_y1 - top) / static_cast<double>(axis_ns);
  Axis(&svg, mean_x0, mean_x1, top, plot_y1, axis_ns, tick);
  svg.Raw("<g class=\"mean\">\n");
  for (int side = 0; side < 2; ++side) {
    const double x = mean_x0 + 10 + side * (mean_bar + 10);
    svg.StackedBar("mean-seg", means[side].mean_ns, x, mean_bar, plot_y1, full_px);
    svg.Text(x + mean_bar / 2, plot_y1 + 14, side == 0 ? "A" : "B", SvgHex(side == 0 ? theme::kRunA : theme::kRunB),
             "middle");
    const double top_y = plot_y1 - static_cast<double>(means[side].mean_dur_ns) * full_px;
    svg.Text(x + mean_bar / 2, top_y - 4, FormatDuration(means[side].mean_dur_ns), kInk, "middle", 10);
  }
  svg.Raw("</g>\n");
  svg.Text(mean_x0, top - 8, "Mean step", kMuted);
  const double row_gap = 16, row_h = (plot_y1 - top - row_gap) / 2;
  const double row_px = row_h / static_cast<double>(axis_ns);
  const double step_px = (series_x1 - series_x0) / static_cast<double>(total);
  for (int side = 0; side < 2; ++side) {
    const double y0 = top + side * (row_h + row_gap), y1 = y0 + row_h;
    Axis(&svg, series_x0, series_x1, y0, y1, axis_ns, axis_ns);
    svg.Text(series_x0 - 40, (y0 + y1) / 2 + 4, side == 0 ? "A" : "B", SvgHex(side == 0 ? theme::kRunA : theme::kRunB),
             "middle", 13);
    svg.Raw(side == 0 ? "<g class=\"steps-a\">\n" : "<g class=\"steps-b\">\n");
    for (const StepBucket& b : buckets[side]) {
      const double x0 = series_x0 + b.first * step_px, w = (b.end - b.first) * step_px;
      svg.StackedBar(side == 0 ? "seg-a" : "seg-b", b.mean_ns, x0, w > 4 ? w - 1 : w, y1, row_px);
    }
    svg.Raw("</g>\n");
  }
  const std::string x_label = per == 1 ? "Per step: step k of A over step k of B"
                                       : "Per step, " + std::to_string(per) + " steps per bar (mean)";
  svg.Text(series_x0, top - 8, x_label, kMuted);
  const double legend_y0 = plot_y1 + 26;
  for (size_t i = 0; i < present.size(); ++i) {
    const auto [x, y] = legend_at[i];
    svg.Rect("swatch", x, legend_y0 + y, 10, 10, SvgHex(theme::kCategoryColors[present[i]]));
    svg.Text(x + 14, legend_y0 + y + 9.5, CategoryLabel(static_cast<analysis::TimeCategory>(present[i])), kInk);
  }
  return svg.Finish();
}

}  // namespace stepline::ui
