// StepChart: bucketing (pure) and drawing with ImDrawList; see step_chart.h.
#include "ui/step_chart.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/analysis/serving_steps.h"
#include "model/analysis/headline.h"
#include "ui/analysis_format.h"
#include "ui/headline_text.h"
#include "ui/step_phase.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::CategoryNs;
using analysis::kTimeCategoryCount;
using analysis::ReportStep;
using analysis::TimeCategory;

size_t StepsPerBucket(size_t steps, float width_px, float min_bar_px) {
  if (steps == 0) return 1;
  const double fit = std::max(1.0, std::floor(static_cast<double>(width_px) / std::max(1.f, min_bar_px)));
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(static_cast<double>(steps) / fit)));
}

namespace {

StepBucket MakeBucket(std::span<const ReportStep> steps, uint32_t first, uint32_t end) {
  StepBucket b;
  b.first = first;
  b.end = end;
  CategoryNs sum{};
  DurNs dur_sum = 0;
  b.min_dur_ns = steps[first].dur_ns;
  for (uint32_t i = first; i < end; ++i) {
    for (int c = 0; c < kTimeCategoryCount; ++c) sum[c] += steps[i].breakdown[c];
    dur_sum += steps[i].dur_ns;
    b.min_dur_ns = std::min(b.min_dur_ns, steps[i].dur_ns);
    b.max_dur_ns = std::max(b.max_dur_ns, steps[i].dur_ns);
  }
  const DurNs n = end - first;
  for (int c = 0; c < kTimeCategoryCount; ++c) b.mean_ns[c] = sum[c] / n;
  b.mean_dur_ns = dur_sum / n;
  return b;
}

}  // namespace

std::vector<uint8_t> OutlierMask(const analysis::Report& report) {
  std::vector<uint8_t> mask(report.steps.size(), 0);
  for (const analysis::ReportOutlierStep& o : report.outlier_steps) {
    if (o.step < mask.size()) mask[o.step] = 1;
  }
  return mask;
}

std::vector<StepBucket> BucketSteps(std::span<const ReportStep> steps, float width_px, float min_bar_px,
                                    std::span<const uint8_t> outlier_mask) {
  std::vector<StepBucket> out;
  const size_t per = StepsPerBucket(steps.size(), width_px, min_bar_px);
  for (size_t i = 0; i < steps.size(); i += per) {
    out.push_back(MakeBucket(steps, static_cast<uint32_t>(i), static_cast<uint32_t>(std::min(steps.size(), i + per))));
    for (uint32_t k = out.back().first; k < out.back().end && k < outlier_mask.size(); ++k) {
      out.back().outliers += outlier_mask[k];
    }
  }
  return out;
}

uint32_t StepHistogram::max_count() const {
  return counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
}

StepHistogram BuildStepHistogram(std::span<const ReportStep> steps, std::span<const uint8_t> outlier_mask,
                                 int max_bins) {
  StepHistogram h;
  if (steps.empty()) return h;
  DurNs lo = steps.front().dur_ns, hi = lo;
  for (const ReportStep& st : steps) {
    lo = std::min(lo, st.dur_ns);
    hi = std::max(hi, st.dur_ns);
  }
  const auto want = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(steps.size()))));
  const DurNs bins = std::clamp(want, 1, std::max(1, max_bins));
  h.lo_ns = lo;
  h.bin_ns = std::max<DurNs>(1, (hi - lo) / bins + 1);  // + 1: the longest step lands inside the last bin
  h.counts.assign(static_cast<size_t>(bins), 0);
  h.outliers.assign(static_cast<size_t>(bins), 0);
  for (size_t i = 0; i < steps.size(); ++i) {
    const size_t bin = std::min(static_cast<size_t>((steps[i].dur_ns - lo) / h.bin_ns), h.counts.size() - 1);
    ++h.counts[bin];
    if (i < outlier_mask.size() && outlier_mask[i]) ++h.outliers[bin];
  }
  return h;
}

StepBucket MeanBucket(std::span<const ReportStep> steps) {
  return steps.empty() ? StepBucket{} : MakeBucket(steps, 0, static_cast<uint32_t>(steps.size()));
}

int CategoryAtFraction(const StepBucket& b, double frac) {
  if (b.mean_dur_ns <= 0 || frac < 0) return -1;
  const double at_ns = frac * static_cast<double>(b.mean_dur_ns);
  double below = 0;
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    below += static_cast<double>(b.mean_ns[c]);
    if (b.mean_ns[c] > 0 && at_ns < below) return c;
  }
  return -1;
}

DurNs NiceTickStep(DurNs max_ns, int intervals) {
  const double raw = static_cast<double>(std::max<DurNs>(1, max_ns)) / std::max(1, intervals);
  const double mag = std::pow(10.0, std::floor(std::log10(std::max(raw, 1.0))));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * mag >= raw) return std::max<DurNs>(1, static_cast<DurNs>(m * mag));
  }
  return std::max<DurNs>(1, static_cast<DurNs>(10 * mag));
}

BarLayout StepBarLayout(size_t bars, float plot_w, float scale) {
  BarLayout l;
  if (bars == 0 || plot_w <= 0) return l;
  l.width = std::min(plot_w / static_cast<float>(bars), plot_w * theme::kChartMaxBarShare);
  // No gap at all for bars a few px wide: it would eat them.
  if (l.width > 4 * theme::kChartBarGap * scale) {
    l.gap = std::clamp(l.width * theme::kChartBarGapShare, theme::kChartBarGap * scale, theme::kChartMaxBarGap * scale);
  }
  return l;
}

void StepChart::Draw(ViewState& state, float width, float height) {
  const auto& report = state.data->analysis.report;
  const float s = UiScale();
  // The view toggle: bars per step, or the histogram of their durations.
  const float toggle_top = ImGui::GetCursorScreenPos().y;
  ImGui::Checkbox("Histogram of step times", &state.panels.step_histogram);
  if (!report.outlier_steps.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "%zu outlier step%s",
                       report.outlier_steps.size(), report.outlier_steps.size() == 1 ? "" : "s");
  }
  height = std::max(height - (ImGui::GetCursorScreenPos().y - toggle_top), 40 * s);
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const std::span<const ReportStep> steps(report.steps);
  const StepBucket mean = MeanBucket(steps);
  DurNs scale_ns = mean.mean_dur_ns;
  for (const ReportStep& st : steps) scale_ns = std::max(scale_ns, st.dur_ns);
  const std::string top_label = FormatDuration(scale_ns);
  // The axis column fits its widest label (large fonts, "224.9 ms").
  const float axis_w = std::max(theme::kChartAxisWidth * s, ImGui::CalcTextSize(top_label.c_str()).x + 10 * s);
  const float mean_w = theme::kMeanBarWidth * s;
  const float label_h = ImGui::GetFontSize() + 2;
  const float sep = theme::kMeanBarSeparation * s;
  const std::vector<uint8_t> mask = OutlierMask(report);
  const float tick_h = report.outlier_steps.empty() ? 0.f : theme::kOutlierTickPx * s + 2;
  Rect plot{pos.x + axis_w, pos.y + 4 + tick_h, pos.x + width - mean_w - sep - 4 * s, pos.y + height - label_h};
  ImGui::InvisibleButton("##step_chart", ImVec2(width, height));
  if (state.panels.step_histogram) {
    DrawHistogram(state, Rect{plot.x0, pos.y + 4, pos.x + width - 4 * s, plot.y1}, pos.x);
    ColorSwatch(theme::kCategoryColors[0]);
    ImGui::TextUnformatted("steps");
    ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
    ColorSwatch(theme::kErrorText);
    ImGui::TextUnformatted("outlier steps (slower than the median + max(3 MAD, 20%))");
    return;
  }
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  buckets_ = BucketSteps(steps, plot.x1 - plot.x0, theme::kChartMinBarPx * s, mask);
  scale_ns = mean.mean_dur_ns;
  for (const StepBucket& b : buckets_) scale_ns = std::max(scale_ns, b.mean_dur_ns);
  if (scale_ns <= 0) return;
  // A few steps on a wide chart fill it (three steps once took 360 of 1920 px).
  const BarLayout layout = StepBarLayout(buckets_.size(), plot.x1 - plot.x0, s);
  const float bar_w = layout.width, gap = layout.gap;
  const float grid_x1 = plot.x1 + sep + mean_w;
  plot.x1 = plot.x0 + bar_w * static_cast<float>(buckets_.size());
  DrawAxis(scale_ns, plot, pos.x, grid_x1);
  int hover_bucket = -1;
  const bool serving = analysis::HasServingPhases(report.phases);
  for (size_t i = 0; i < buckets_.size(); ++i) {
    const Rect r{plot.x0 + bar_w * static_cast<float>(i), plot.y0, plot.x0 + bar_w * static_cast<float>(i + 1) - gap,
                 plot.y1};
    const bool over = hovered && mouse.x >= r.x0 && mouse.x < r.x0 + bar_w;
    const bool focused = state.links.focused_step >= static_cast<int>(buckets_[i].first) &&
                         state.links.focused_step < static_cast<int>(buckets_[i].end);
    DrawBar(buckets_[i], r, scale_ns, over || focused);
    if (serving) {  // the phase band under the bar
      dl->AddRectFilled(ImVec2(r.x0, r.y1 - 3 * s), ImVec2(r.x1, r.y1),
                        PhaseColor(BucketPhase(steps, buckets_[i].first, buckets_[i].end)));
    }
    if (buckets_[i].outliers > 0) DrawOutlierTick(buckets_[i], r, scale_ns);
    if (over) hover_bucket = static_cast<int>(i);
  }
  const Rect mean_r{plot.x1 + sep, plot.y0, plot.x1 + sep + mean_w, plot.y1};
  DrawBar(mean, mean_r, scale_ns, false);
  const float mean_label_w = ImGui::CalcTextSize("mean").x;
  dl->AddText(ImVec2((mean_r.x0 + mean_r.x1 - mean_label_w) / 2, plot.y1 + 1), theme::kCardLabel, "mean");
  const float mean_y = plot.y1 - (plot.y1 - plot.y0) * static_cast<float>(mean.mean_dur_ns) / static_cast<float>(scale_ns);
  dl->AddLine(ImVec2(plot.x0, mean_y), ImVec2(mean_r.x1, mean_y), theme::kChartMeanLine);
  const std::string count = std::to_string(steps.size()) + (steps.size() == 1 ? " step" : " steps");
  const std::string range_label = buckets_.size() == steps.size()
                                      ? count
                                      : count + ", " + std::to_string(buckets_.front().count()) + " per bar (mean)";
  dl->AddText(ImVec2(plot.x0, plot.y1 + 1), theme::kCardLabel, range_label.c_str());
  const auto frac_at = [&](float y0, float y1, DurNs dur) {
    return (y1 - mouse.y) / (y1 - y0) * static_cast<double>(scale_ns) / static_cast<double>(std::max<DurNs>(1, dur));
  };
  if (hover_bucket >= 0) {
    const StepBucket& b = buckets_[hover_bucket];
    DrawTooltip(state, b, CategoryAtFraction(b, frac_at(plot.y0, plot.y1, b.mean_dur_ns)), false);
    if (ImGui::IsItemClicked(0)) {
      const ReportStep& first = steps[b.first];
      const ReportStep& last = steps[b.end - 1];
      state.links.focused_step = static_cast<int32_t>(b.first);
      state.FitRange(TimeRange{first.start_ns, last.start_ns + last.dur_ns}, 0.02);
    }
  } else if (hovered && mouse.x >= mean_r.x0 && mouse.x < mean_r.x1) {
    DrawTooltip(state, mean, CategoryAtFraction(mean, frac_at(plot.y0, plot.y1, mean.mean_dur_ns)), true);
  }
  DrawCategoryLegend(report.breakdown_total);
  if (serving) DrawPhaseLegend(report.phases);
}

// The y axis: the tallest bar's time at the top, 0 at the bottom, and
// gridlines at round times in between where their labels fit.
void StepChart::DrawAxis(DurNs scale_ns, const Rect& plot, float label_x, float grid_x1) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  dl->AddLine(ImVec2(plot.x0 - 2, plot.y0), ImVec2(plot.x0 - 2, plot.y1), theme::kChartAxis);
  dl->AddText(ImVec2(label_x, plot.y0), theme::kCardLabel, FormatDuration(scale_ns).c_str());
  dl->AddText(ImVec2(label_x, plot.y1 - font), theme::kCardLabel, "0");
  const float plot_h = plot.y1 - plot.y0;
  const int intervals = std::clamp(static_cast<int>(plot_h / (font * 2.5f)), 1, 8);
  const DurNs tick = NiceTickStep(scale_ns, intervals);
  for (DurNs t = tick; t < scale_ns; t += tick) {
    const float y = plot.y1 - plot_h * static_cast<float>(static_cast<double>(t) / static_cast<double>(scale_ns));
    dl->AddLine(ImVec2(plot.x0, y), ImVec2(grid_x1, y), theme::kGridLine);
    // Labels that would touch the top or bottom one are left out.
    if (y - plot.y0 > font * 1.8f && plot.y1 - y > font * 1.5f) {
      dl->AddText(ImVec2(label_x, y - font / 2), theme::kCardLabel, FormatTickLabel(t, tick).c_str());
    }
  }
}

void StepChart::DrawBar(const StepBucket& b, const Rect& r, DurNs scale_ns, bool highlight) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const double px_per_ns = static_cast<double>(r.y1 - r.y0) / static_cast<double>(scale_ns);
  const float font = ImGui::GetFontSize();
  double y = r.y1;
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    if (b.mean_ns[c] <= 0) continue;
    const double h = static_cast<double>(b.mean_ns[c]) * px_per_ns;
    dl->AddRectFilled(ImVec2(r.x0, static_cast<float>(y - h)), ImVec2(r.x1, static_cast<float>(y)),
                      theme::kCategoryColors[c]);
    // Wide bars (few steps) say their shares, so a picture reads without hovering.
    const std::string pct = Percent(static_cast<double>(b.mean_ns[c]), static_cast<double>(b.mean_dur_ns));
    const ImVec2 text = ImGui::CalcTextSize(pct.c_str());
    if (h >= font + 2 && r.x1 - r.x0 >= text.x + 8) {
      dl->AddText(ImVec2((r.x0 + r.x1 - text.x) / 2, static_cast<float>(y - h / 2) - text.y / 2), theme::kSliceText,
                  pct.c_str());
    }
    y -= h;
  }
  if (highlight) dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), theme::kChartHover);
}

void StepChart::DrawTooltip(const ViewState& state, const StepBucket& b, int category, bool is_mean) {
  const auto& steps = state.data->analysis.report.steps;
  BeginWrappedTooltip();
  // samples/s beside the step time once a batch size is set (the run's for the mean bar).
  const bool samples = state.data->analysis.efficiency.batch_size > 0;
  if (is_mean) {
    ImGui::Text("Mean of %zu steps: %s", steps.size(), FormatDuration(b.mean_dur_ns).c_str());
    if (samples) {
      const analysis::Headline h = analysis::ComputeHeadline(state.data->analysis.report);
      ImGui::Text("%s samples/s", HeadlineFigureText("step chart", h, analysis::HeadlineFigure::kSamplesPerS).c_str());
    }
  } else if (b.count() == 1) {
    ImGui::Text("%s: %s", steps[b.first].name.c_str(), FormatDuration(b.mean_dur_ns).c_str());
    if (samples) {
      ImGui::Text("%s samples/s",
                  HeadlineValueFigureText("step chart", analysis::HeadlineFigure::kSamplesPerS,
                                          steps[b.first].efficiency.samples_per_s, steps[b.first].name)
                      .c_str());
    }
  } else {
    ImGui::Text("%s .. %s (%u steps)", steps[b.first].name.c_str(), steps[b.end - 1].name.c_str(), b.count());
    ImGui::Text("mean %s, min %s, max %s", FormatDuration(b.mean_dur_ns).c_str(), FormatDuration(b.min_dur_ns).c_str(),
                FormatDuration(b.max_dur_ns).c_str());
  }
  if (category >= 0) {
    const double pct = 100.0 * static_cast<double>(b.mean_ns[category]) / static_cast<double>(b.mean_dur_ns);
    ColorSwatch(theme::kCategoryColors[category]);
    ImGui::Text("%s: %s (%.1f%%)", CategoryLabel(static_cast<TimeCategory>(category)),
                FormatDuration(b.mean_ns[category]).c_str(), pct);
  }
  // Why an outlier step is slow: what grew, and what runs in it.
  const auto& outliers = state.data->analysis.report.outlier_steps;
  int shown = 0;
  for (const analysis::ReportOutlierStep& o : outliers) {
    if (is_mean || o.step < b.first || o.step >= b.end || shown++ == 3) continue;
    ImGui::Separator();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(theme::kErrorText), "Outlier %s: +%s over the median step",
                       o.name.c_str(), FormatDuration(o.excess_ns).c_str());
    if (!o.cause.empty()) ImGui::Text("grew most: %.*s", static_cast<int>(o.cause.size()), o.cause.data());
    for (size_t k = 0; k < o.blamed.size() && k < 3; ++k) {
      ImGui::Text("runs in it: %s (+%s)", analysis::ShortEventName(o.blamed[k]).c_str(),
                  FormatDuration(o.blamed_excess_ns[k]).c_str());
    }
  }
  if (!is_mean) ImGui::TextDisabled("Click to show on the timeline");
  EndWrappedTooltip();
}

// A downward triangle just above the bar: this bar holds an outlier step.
void StepChart::DrawOutlierTick(const StepBucket& b, const Rect& r, DurNs scale_ns) {
  const float s = UiScale();
  const float top = r.y1 - (r.y1 - r.y0) * static_cast<float>(static_cast<double>(b.max_dur_ns) /
                                                              static_cast<double>(std::max<DurNs>(1, scale_ns)));
  const float cx = (r.x0 + r.x1) / 2, h = theme::kOutlierTickPx * s;
  const float half = std::min(h * 0.6f, std::max(2.f, (r.x1 - r.x0) / 2));
  ImGui::GetWindowDrawList()->AddTriangleFilled(ImVec2(cx - half, top - h - 1), ImVec2(cx + half, top - h - 1),
                                                ImVec2(cx, top - 1), theme::kErrorText);
}

// The histogram of step durations: bars of step counts per duration bin
// (outlier steps stacked on top in the outlier colour) and the p50/p90/p99
// lines, so a tail of slow steps (inference latency) reads at a glance.
void StepChart::DrawHistogram(const ViewState& state, const Rect& plot, float label_x) {
  const auto& report = state.data->analysis.report;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  const StepHistogram h = BuildStepHistogram(report.steps, OutlierMask(report), theme::kHistogramMaxBins);
  if (h.counts.empty()) return;
  const uint32_t top = std::max<uint32_t>(1, h.max_count());
  dl->AddLine(ImVec2(plot.x0 - 2, plot.y0), ImVec2(plot.x0 - 2, plot.y1), theme::kChartAxis);
  const std::string top_label = std::to_string(top) + (top == 1 ? " step" : " steps");
  dl->AddText(ImVec2(label_x, plot.y0), theme::kCardLabel, top_label.c_str());
  dl->AddText(ImVec2(label_x, plot.y1 - font), theme::kCardLabel, "0");
  const float bin_w = (plot.x1 - plot.x0) / static_cast<float>(std::max<size_t>(1, h.counts.size()));
  const float px_per_step = (plot.y1 - plot.y0) / static_cast<float>(top);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered = ImGui::IsItemHovered();
  for (size_t i = 0; i < h.counts.size(); ++i) {
    const float x0 = plot.x0 + bin_w * static_cast<float>(i), x1 = x0 + bin_w - std::min(2.f, bin_w / 4);
    const float y_typical = plot.y1 - px_per_step * static_cast<float>(h.counts[i] - h.outliers[i]);
    const float y_top = plot.y1 - px_per_step * static_cast<float>(h.counts[i]);
    dl->AddRectFilled(ImVec2(x0, y_typical), ImVec2(x1, plot.y1), theme::kCategoryColors[0]);
    if (h.outliers[i] > 0) dl->AddRectFilled(ImVec2(x0, y_top), ImVec2(x1, y_typical), theme::kErrorText);
    if (hovered && mouse.x >= x0 && mouse.x < x0 + bin_w && mouse.y >= plot.y0 && mouse.y <= plot.y1) {
      dl->AddRectFilled(ImVec2(x0, plot.y0), ImVec2(x1, plot.y1), theme::kChartHover);
      const DurNs a = h.lo_ns + static_cast<DurNs>(i) * h.bin_ns;
      BeginWrappedTooltip();
      ImGui::Text("%u step%s of %s .. %s", h.counts[i], h.counts[i] == 1 ? "" : "s", FormatDuration(a).c_str(),
                  FormatDuration(a + h.bin_ns).c_str());
      if (h.outliers[i] > 0) ImGui::Text("%u outlier step%s", h.outliers[i], h.outliers[i] == 1 ? "" : "s");
      EndWrappedTooltip();
    }
  }
  // Percentile lines, labelled at the top.
  const analysis::StepStats& st = state.data->analysis.step_stats;
  const double span = static_cast<double>(h.bin_ns) * static_cast<double>(h.counts.size());
  const std::pair<const char*, DurNs> lines[] = {{"p50", st.p50_ns}, {"p90", st.p90_ns}, {"p99", st.p99_ns}};
  float row_y = plot.y0;  // one label row per line, so close percentiles never overprint
  for (const auto& [name, ns] : lines) {
    const float x = plot.x0 + (plot.x1 - plot.x0) * static_cast<float>(static_cast<double>(ns - h.lo_ns) / span);
    dl->AddLine(ImVec2(x, plot.y0), ImVec2(x, plot.y1), theme::kChartMeanLine);
    const std::string label = std::string(name) + " " + FormatDuration(ns);
    const float w = ImGui::CalcTextSize(label.c_str()).x;
    const float lx = x + 4 + w <= plot.x1 ? x + 4 : x - 4 - w;  // right of the line, else left of it
    dl->AddRectFilled(ImVec2(lx - 2, row_y), ImVec2(lx + w + 2, row_y + font), ImGui::GetColorU32(ImGuiCol_WindowBg));
    dl->AddText(ImVec2(lx, row_y), theme::kCardLabel, label.c_str());
    row_y += font + 2;
  }
  const std::string lo = FormatDuration(h.lo_ns), hi = FormatDuration(h.lo_ns + static_cast<DurNs>(span));
  dl->AddText(ImVec2(plot.x0, plot.y1 + 1), theme::kCardLabel, lo.c_str());
  dl->AddText(ImVec2(plot.x1 - ImGui::CalcTextSize(hi.c_str()).x, plot.y1 + 1), theme::kCardLabel, hi.c_str());
  const std::string title = std::to_string(report.steps.size()) + " steps by duration";
  dl->AddText(ImVec2((plot.x0 + plot.x1 - ImGui::CalcTextSize(title.c_str()).x) / 2, plot.y1 + 1), theme::kCardLabel,
              title.c_str());
}

void DrawCategoryLegend(const CategoryNs& a, const CategoryNs* b) {
  // Only the categories that occur, so the legend names what is on screen.
  const float avail = ImGui::GetContentRegionAvail().x;
  float used = -1;  // < 0: at the start of a line
  for (int c = 0; c < kTimeCategoryCount; ++c) {
    if (a[c] <= 0 && (b == nullptr || (*b)[c] <= 0)) continue;
    const char* label = CategoryLabel(static_cast<TimeCategory>(c));
    const float w = ImGui::GetFontSize() + ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemSpacing.x * 3;
    if (used >= 0 && used + w < avail) {
      ImGui::SameLine(0, ImGui::GetStyle().ItemSpacing.x * 2);
      used += w;
    } else {
      used = w;
    }
    ColorSwatch(theme::kCategoryColors[c]);
    ImGui::TextUnformatted(label);
  }
}

}  // namespace stepline::ui
