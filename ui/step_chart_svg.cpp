// Step chart to SVG; see step_chart_svg.h. Layout, top to bottom: title,
// plot (axis labels at the left, mean bar at the right), x label, legend.
#include "ui/step_chart_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>

#include "ui/analysis_format.h"
#include "ui/step_chart.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

using analysis::kTimeCategoryCount;

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

namespace {

// Print-friendly page: white paper, dark text; the bars keep the app's colours.
constexpr const char* kPaper = "#ffffff";
constexpr const char* kInk = "#202428";
constexpr const char* kMuted = "#6b7280";
constexpr const char* kGrid = "#e5e7eb";
constexpr double kFontPx = 12;
constexpr double kCharPx = 7;  // average DejaVu Sans advance at 12 px, for legend wrapping

std::string Hex(uint32_t abgr) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", abgr & 0xff, (abgr >> 8) & 0xff, (abgr >> 16) & 0xff);
  return buf;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

class Svg {
 public:
  void Rect(const char* cls, double x, double y, double w, double h, const std::string& fill) {
    out_ += "<rect class=\"" + std::string(cls) + "\" x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(w) +
            "\" height=\"" + Num(h) + "\" fill=\"" + fill + "\"/>\n";
  }
  void Line(double x0, double y0, double x1, double y1, const char* stroke, const char* extra = "") {
    out_ += "<line x1=\"" + Num(x0) + "\" y1=\"" + Num(y0) + "\" x2=\"" + Num(x1) + "\" y2=\"" + Num(y1) +
            "\" stroke=\"" + stroke + "\"" + extra + "/>\n";
  }
  void Text(double x, double y, std::string_view text, const char* fill, const char* anchor = "start",
            double size = kFontPx) {
    out_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" fill=\"" + fill + "\" text-anchor=\"" + anchor +
            "\" font-size=\"" + Num(size) + "\">" + XmlEscape(text) + "</text>\n";
  }
  std::string& out() { return out_; }

 private:
  std::string out_;
};

// Stacks one bar's categories from the bottom, TimeCategory order (as the app).
void StackBar(Svg* svg, const char* cls, const analysis::CategoryNs& mean_ns, double x, double w, double y_bottom,
              double px_per_ns) {
  double y = y_bottom;
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    if (mean_ns[c] <= 0) continue;
    const double h = static_cast<double>(mean_ns[c]) * px_per_ns;
    svg->Rect(cls, x, y - h, w, h, Hex(theme::kCategoryColors[c]));
    y -= h;
  }
}

}  // namespace

std::string BuildStepChartSvg(const analysis::Report& report, const StepChartSvgOptions& options) {
  const double width = std::max(200, options.width), height = std::max(150, options.height);
  Svg svg;
  svg.out() = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
              Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) +
              "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n";
  const std::string title = options.title.empty() ? "Step time" : options.title;
  svg.out() += "<title>" + XmlEscape(title) + "</title>\n";
  svg.Rect("background", 0, 0, width, height, kPaper);
  svg.Text(12, 22, title, kInk, "start", 14);

  const std::span<const analysis::ReportStep> steps(report.steps);
  const StepBucket mean = MeanBucket(steps);
  if (steps.empty() || mean.mean_dur_ns <= 0) {
    svg.Text(width / 2, height / 2, "No steps in this trace", kMuted, "middle");
    svg.out() += "</svg>\n";
    return svg.out();
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
  // As in the app: a few steps get bars of a readable width, not one block.
  const double bar_w = std::min((plot_x1 - plot_x0) / static_cast<double>(buckets.size()),
                                static_cast<double>(theme::kChartMaxBarPx));
  const double gap = bar_w > 4 ? 1 : 0;
  svg.out() += "<g class=\"steps\">\n";
  for (size_t i = 0; i < buckets.size(); ++i) {
    StackBar(&svg, "seg", buckets[i].mean_ns, plot_x0 + bar_w * static_cast<double>(i), bar_w - gap, plot_y1,
             px_per_ns);
  }
  svg.out() += "</g>\n<g class=\"mean\">\n";
  const double mean_x = plot_x0 + bar_w * static_cast<double>(buckets.size()) + mean_sep;
  StackBar(&svg, "mean-seg", mean.mean_ns, mean_x, mean_w, plot_y1, px_per_ns);
  svg.out() += "</g>\n";
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
    svg.Rect("swatch", item.x, legend_y0 + item.y, 10, 10, Hex(theme::kCategoryColors[item.category]));
    svg.Text(item.x + 14, legend_y0 + item.y + 9.5, CategoryLabel(static_cast<analysis::TimeCategory>(item.category)),
             kInk);
  }
  svg.out() += "</svg>\n";
  return svg.out();
}

}  // namespace stepline::ui
