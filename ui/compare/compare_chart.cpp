// CompareChart: bucketing (pure) and drawing with ImDrawList; see compare_chart.h.
#include "ui/compare/compare_chart.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/analysis_format.h"
#include "ui/compare/compare_theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::CategoryNs;
using analysis::CompareSide;
using analysis::kTimeCategoryCount;

namespace {

StepBucket MakeBucket(const CompareSide& side, uint32_t first, uint32_t end) {
  StepBucket b;
  b.first = first;
  b.end = end;
  CategoryNs sum{};
  DurNs dur_sum = 0;
  b.min_dur_ns = side.step_dur_ns[first];
  for (uint32_t i = first; i < end; ++i) {
    for (int c = 0; c < kTimeCategoryCount; ++c) sum[c] += side.step_breakdown[i][c];
    dur_sum += side.step_dur_ns[i];
    b.min_dur_ns = std::min(b.min_dur_ns, side.step_dur_ns[i]);
    b.max_dur_ns = std::max(b.max_dur_ns, side.step_dur_ns[i]);
  }
  const DurNs n = end - first;
  for (int c = 0; c < kTimeCategoryCount; ++c) b.mean_ns[c] = sum[c] / n;
  b.mean_dur_ns = dur_sum / n;
  return b;
}


}  // namespace

std::vector<StepBucket> BucketCompareSide(const CompareSide& side, size_t per) {
  std::vector<StepBucket> out;
  const size_t n = std::min(side.step_dur_ns.size(), side.step_breakdown.size());
  per = std::max<size_t>(1, per);
  for (size_t i = 0; i < n; i += per) {
    out.push_back(MakeBucket(side, static_cast<uint32_t>(i), static_cast<uint32_t>(std::min(n, i + per))));
  }
  return out;
}

StepBucket MeanCompareBucket(const CompareSide& side) {
  StepBucket b;
  b.end = static_cast<uint32_t>(side.steps);
  b.mean_ns = side.breakdown_mean;
  b.mean_dur_ns = side.step_mean_ns;
  if (!side.step_dur_ns.empty()) {
    const auto [lo, hi] = std::minmax_element(side.step_dur_ns.begin(), side.step_dur_ns.end());
    b.min_dur_ns = *lo;
    b.max_dur_ns = *hi;
  }
  return b;
}

namespace {

// One stacked bar in [x0, x1) from the bottom of `y1` up, `px_per_ns` tall.
void StackedBar(ImDrawList* dl, const StepBucket& b, float x0, float x1, float y1, double px_per_ns) {
  double y = y1;
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    if (b.mean_ns[c] <= 0) continue;
    const double h = static_cast<double>(b.mean_ns[c]) * px_per_ns;
    dl->AddRectFilled(ImVec2(x0, static_cast<float>(y - h)), ImVec2(x1, static_cast<float>(y)),
                      theme::kCategoryColors[c]);
    y -= h;
  }
}

void BarTooltip(const char* run, const CompareSide& side, const StepBucket& b, int category) {
  BeginWrappedTooltip();
  if (b.count() == 1 && b.first < side.step_names.size()) {
    ImGui::Text("%s  %s: %s", run, side.step_names[b.first].c_str(), FormatDuration(b.mean_dur_ns).c_str());
  } else {
    ImGui::Text("%s  steps %u..%u (%u): mean %s", run, b.first, b.end - 1, b.count(),
                FormatDuration(b.mean_dur_ns).c_str());
    ImGui::Text("min %s, max %s", FormatDuration(b.min_dur_ns).c_str(), FormatDuration(b.max_dur_ns).c_str());
  }
  if (category >= 0) {
    ColorSwatch(theme::kCategoryColors[category]);
    ImGui::Text("%s: %s (%s)", CategoryLabel(static_cast<analysis::TimeCategory>(category)),
                FormatDuration(b.mean_ns[category]).c_str(),
                Percent(static_cast<double>(b.mean_ns[category]), static_cast<double>(b.mean_dur_ns)).c_str());
  }
  ImGui::TextDisabled("Click to align the timelines on this step");
  EndWrappedTooltip();
}

}  // namespace

std::vector<uint32_t> StepAxisLabels(size_t steps, float plot_w, float min_label_px) {
  std::vector<uint32_t> out;
  if (steps == 0 || plot_w <= 0) return out;
  const double step_px = static_cast<double>(plot_w) / static_cast<double>(steps);
  size_t stride = 1;
  for (size_t mag = 1; stride * step_px < min_label_px; mag *= 10) {
    for (size_t m : {1, 2, 5, 10}) {
      stride = m * mag;
      if (stride * step_px >= min_label_px) break;
    }
  }
  for (size_t i = 0; i < steps; i += stride) out.push_back(static_cast<uint32_t>(i));
  return out;
}

int CompareChart::Draw(const analysis::Comparison& c, int step_a, int step_b, float width, float height) {
  const float s = UiScale();
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * 2;
  ImGui::InvisibleButton("##compare_chart", ImVec2(width, std::max(10.f, height - legend_h)));
  // Tooltips below start windows of their own: read the button's state first.
  hovered_ = ImGui::IsItemHovered();
  const bool clicked = ImGui::IsItemClicked(0);
  const float plot_h = std::max(10.f, height - legend_h);
  const float mean_w = 2 * theme::kMeanBarWidth * s + 3 * 8 * s + theme::kChartAxisWidth * s;
  DrawMeanBars(c, Rect{pos.x, pos.y, pos.x + mean_w, pos.y + plot_h});
  // The series: A's row over B's, one x scale (step index) and one y scale.
  const Rect series{pos.x + mean_w + theme::kMeanBarSeparation * s, pos.y, pos.x + width, pos.y + plot_h};
  const float font = ImGui::GetFontSize();
  const size_t total = std::max(c.a.step_dur_ns.size(), c.b.step_dur_ns.size());
  // Left of each row: its letter, then its y axis labels. No tick label is
  // wider than the longest step's duration (bucket means are no longer).
  DurNs longest_ns = 0;
  for (const CompareSide* side : {&c.a, &c.b}) {
    for (DurNs d : side->step_dur_ns) longest_ns = std::max(longest_ns, d);
  }
  const float gutter = font * theme::kCompareRunLetterEm + ImGui::CalcTextSize(FormatDuration(longest_ns).c_str()).x +
                       theme::kCompareAxisGap * s;
  const size_t per = StepsPerBucket(total, series.x1 - series.x0 - gutter, theme::kChartMinBarPx * s);
  buckets_[0] = BucketCompareSide(c.a, per);
  buckets_[1] = BucketCompareSide(c.b, per);
  DurNs scale_ns = 0;
  for (const auto& side : buckets_) {
    for (const StepBucket& b : side) scale_ns = std::max(scale_ns, b.mean_dur_ns);
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  const std::string title = total == 0 ? "Per step: no steps found in either run"
                            : per == 1 ? "Per step"
                                       : "Per step, " + std::to_string(per) + " steps per bar (mean)";
  dl->AddText(ImVec2(series.x0, series.y0), theme::kCardLabel, title.c_str());
  if (total == 0 || scale_ns <= 0) return -1;
  const float row_gap = theme::kCompareRowGap * s;
  const float x_axis_h = font + 2;  // step numbers under B's row
  const float row_h = (series.y1 - series.y0 - title_h - row_gap - x_axis_h) / 2;
  // Two or three gridlines a row, fewer when rows are short.
  tick_ns_ = NiceTickStep(scale_ns, std::clamp(static_cast<int>(row_h / (font * 2.5f)), 1, 3));
  const Rect row_a{series.x0, series.y0 + title_h, series.x1, series.y0 + title_h + row_h};
  const Rect row_b{series.x0, row_a.y1 + row_gap, series.x1, row_a.y1 + row_gap + row_h};
  const int hit_a = DrawSeriesRow(c.a, buckets_[0], total, row_a, gutter, scale_ns, step_a, theme::kRunA, "A");
  const int hit_b = DrawSeriesRow(c.b, buckets_[1], total, row_b, gutter, scale_ns, step_b, theme::kRunB, "B");
  DrawStepAxis(Rect{row_b.x0 + gutter, row_b.y1, row_b.x1, row_b.y1 + x_axis_h}, total);
  DrawCategoryLegend(c.a.breakdown_mean, &c.b.breakdown_mean);
  if (clicked) return hit_a >= 0 ? hit_a : hit_b;
  return -1;
}

void CompareChart::DrawMeanBars(const analysis::Comparison& c, const Rect& r) {
  const float s = UiScale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float label_h = ImGui::GetFontSize() + 2;
  const float axis_w = theme::kChartAxisWidth * s, bar_w = theme::kMeanBarWidth * s, gap = 8 * s;
  const float title_h = ImGui::GetTextLineHeightWithSpacing();
  dl->AddText(ImVec2(r.x0, r.y0), theme::kCardLabel, "Mean step");
  // Two value labels sit above the bars, so the plot starts below them.
  const Rect plot{r.x0 + axis_w, r.y0 + title_h + label_h, r.x1, r.y1 - label_h};
  const StepBucket means[2] = {MeanCompareBucket(c.a), MeanCompareBucket(c.b)};
  const DurNs scale_ns = std::max(means[0].mean_dur_ns, means[1].mean_dur_ns);
  if (scale_ns <= 0) return;
  dl->AddLine(ImVec2(plot.x0 - 2, plot.y0), ImVec2(plot.x0 - 2, plot.y1), theme::kChartAxis);
  dl->AddText(ImVec2(r.x0, plot.y0), theme::kCardLabel, FormatDuration(scale_ns).c_str());
  dl->AddText(ImVec2(r.x0, plot.y1 - ImGui::GetFontSize()), theme::kCardLabel, "0");
  const double px_per_ns = static_cast<double>(plot.y1 - plot.y0) / static_cast<double>(scale_ns);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int side = 0; side < 2; ++side) {
    const float x0 = plot.x0 + gap + static_cast<float>(side) * (bar_w + gap);
    StackedBar(dl, means[side], x0, x0 + bar_w, plot.y1, px_per_ns);
    const char* run = side == 0 ? "A" : "B";
    const uint32_t color = side == 0 ? theme::kRunA : theme::kRunB;
    dl->AddText(ImVec2(x0 + (bar_w - ImGui::CalcTextSize(run).x) / 2, plot.y1 + 1), color, run);
    const std::string value = FormatDuration(means[side].mean_dur_ns);
    const float top = plot.y1 - static_cast<float>(static_cast<double>(means[side].mean_dur_ns) * px_per_ns);
    const float vw = ImGui::CalcTextSize(value.c_str()).x;
    dl->AddText(ImVec2(x0 + (bar_w - vw) / 2, top - label_h), theme::kCardValue, value.c_str());
    if (hovered_ && mouse.x >= x0 && mouse.x < x0 + bar_w && mouse.y >= plot.y0 && mouse.y < plot.y1) {
      const double frac = (plot.y1 - mouse.y) / std::max(1.0, static_cast<double>(means[side].mean_dur_ns) * px_per_ns);
      BeginWrappedTooltip();
      ImGui::Text("%s: mean of %zu steps, %s", run, side == 0 ? c.a.steps : c.b.steps,
                  FormatDuration(means[side].mean_dur_ns).c_str());
      const int cat = CategoryAtFraction(means[side], frac);
      if (cat >= 0) {
        ColorSwatch(theme::kCategoryColors[cat]);
        ImGui::Text("%s: %s", CategoryLabel(static_cast<analysis::TimeCategory>(cat)),
                    FormatDuration(means[side].mean_ns[cat]).c_str());
      }
      EndWrappedTooltip();
    }
  }
}

int CompareChart::DrawSeriesRow(const CompareSide& side, const std::vector<StepBucket>& buckets, size_t steps_total,
                                const Rect& r, float gutter, DurNs scale_ns, int aligned_step, uint32_t run_color,
                                const char* run) {
  const float s = UiScale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const Rect plot{r.x0 + gutter, r.y0, r.x1, r.y1};
  dl->AddText(ImVec2(r.x0, r.y0 + (r.y1 - r.y0 - ImGui::GetFontSize()) / 2), run_color, run);
  dl->AddRectFilled(ImVec2(plot.x0, plot.y0), ImVec2(plot.x1, plot.y1), theme::kCardBackground);
  if (buckets.empty()) {
    dl->AddText(ImVec2(plot.x0 + 6, plot.y0 + 4), theme::kCardLabel, "no steps");
    return -1;
  }
  DrawRowAxis(plot, scale_ns, tick_ns_);
  const double step_px = static_cast<double>(plot.x1 - plot.x0) / static_cast<double>(steps_total);
  const double px_per_ns = static_cast<double>(plot.y1 - plot.y0) / static_cast<double>(scale_ns);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool row_hovered = hovered_ && mouse.y >= plot.y0 && mouse.y < plot.y1 && mouse.x >= plot.x0;
  const float outline = theme::kCompareOutline * s;
  int hit = -1;
  for (const StepBucket& b : buckets) {
    const float x0 = plot.x0 + static_cast<float>(b.first * step_px);
    const float x1 = plot.x0 + static_cast<float>(b.end * step_px);
    const float gap = x1 - x0 > 4 * theme::kChartBarGap * s ? theme::kChartBarGap * s : 0.f;
    StackedBar(dl, b, x0, x1 - gap, plot.y1, px_per_ns);
    const bool aligned = aligned_step >= static_cast<int>(b.first) && aligned_step < static_cast<int>(b.end);
    const bool over = row_hovered && mouse.x >= x0 && mouse.x < x1;
    if (aligned) {
      // An outline, not a fill (a fill would hide short bars), drawn inside
      // the row: ImGui centres a stroke on the rect, half of it outside.
      const float inset = outline / 2;
      dl->AddRect(ImVec2(x0 + inset, plot.y0 + inset),
                  ImVec2(std::max(x1 - gap, x0 + 2 * outline) - inset, plot.y1 - inset), run_color, 0.f, 0, outline);
    }
    if (over) {
      dl->AddRectFilled(ImVec2(x0, plot.y0), ImVec2(x1 - gap, plot.y1), theme::kChartHover);
      const double frac = (plot.y1 - mouse.y) / std::max(1.0, static_cast<double>(b.mean_dur_ns) * px_per_ns);
      BarTooltip(run, side, b, CategoryAtFraction(b, frac));
      hit = static_cast<int>(b.first);
    }
  }
  return hit;
}

void CompareChart::DrawRowAxis(const Rect& plot, DurNs scale_ns, DurNs tick_ns) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const float right = plot.x0 - theme::kCompareAxisGap * UiScale();
  const float plot_h = plot.y1 - plot.y0;
  dl->AddLine(ImVec2(plot.x0 - 1, plot.y0), ImVec2(plot.x0 - 1, plot.y1), theme::kChartAxis);
  float last_top = plot.y1 + font;  // the label above must clear the one below
  for (DurNs t = 0; t <= scale_ns; t += tick_ns) {
    const float y = plot.y1 - plot_h * static_cast<float>(static_cast<double>(t) / static_cast<double>(scale_ns));
    if (t > 0) dl->AddLine(ImVec2(plot.x0, y), ImVec2(plot.x1, y), theme::kGridLine);
    // Centred on its line, but inside the row, so the two rows' labels never meet.
    const float top = std::clamp(y - font / 2, plot.y0, plot.y1 - font);
    if (top + font > last_top) continue;
    const std::string label = t == 0 ? "0" : FormatTickLabel(t, tick_ns);
    dl->AddText(ImVec2(right - ImGui::CalcTextSize(label.c_str()).x, top), theme::kCardLabel, label.c_str());
    last_top = top;
  }
}

void CompareChart::DrawStepAxis(const Rect& plot, size_t steps_total) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float step_px = (plot.x1 - plot.x0) / static_cast<float>(steps_total);
  // Room for the widest number and a space either side.
  const float min_label_px = ImGui::CalcTextSize((std::to_string(steps_total) + "00").c_str()).x;
  for (uint32_t i : StepAxisLabels(steps_total, plot.x1 - plot.x0, min_label_px)) {
    const std::string label = std::to_string(i);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float center = plot.x0 + step_px * (static_cast<float>(i) + 0.5f);
    const float x = std::clamp(center - w / 2, plot.x0, plot.x1 - w);  // the last one stays in the chart
    dl->AddLine(ImVec2(center, plot.y0), ImVec2(center, plot.y0 + 2), theme::kChartAxis);
    dl->AddText(ImVec2(x, plot.y0 + 2), theme::kCardLabel, label.c_str());
  }
}

}  // namespace stepline::ui
