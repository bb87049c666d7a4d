// OverviewPanel drawing; see overview_panel.h. Cards and charts use the
// primary device (the one with the most kernel time), as the report does.
#include "ui/overview_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <string>

#include "model/analysis/headline.h"
#include "ui/analysis_format.h"
#include "ui/analysis_tables.h"
#include "ui/critical_path_list.h"
#include "ui/headline_text.h"
#include "ui/step_chart_svg.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/xla_modules_table.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::IdleCause;
using analysis::kIdleCauseCount;

namespace {


// The big value's font size on a card.
float CardValueSize() { return ImGui::GetFontSize() * 1.25f; }

// A card fits its value and its label up to kCardWideFactor standard widths
// (long event names); a label cut short ("mean ± sample std step tim") hides
// what the number is.
float CardWidth(const std::string& value, const char* label) {
  const float s = UiScale();
  const float text = ImGui::GetFont()->CalcTextSizeA(CardValueSize(), FLT_MAX, 0.f, value.c_str()).x;
  const float label_text = ImGui::CalcTextSize(label).x;
  return std::clamp(std::max(text, label_text) + 16 * s, theme::kCardWidth * s,
                    theme::kCardWidth * theme::kCardWideFactor * s);
}

// `value` cut to `width` px at the card's value size, with "..." when cut.
std::string FitValue(const std::string& value, float width) { return FitText(value, width, CardValueSize()); }

// One card: a big value over a small label, with a tooltip for details (and
// the whole value when it had to be cut).
void DrawCard(const char* id, const std::string& value, const char* label, const std::string& detail, float width) {
  const float s = UiScale();
  const ImVec2 size(width, theme::kCardHeight * s);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p, ImVec2(p.x + size.x, p.y + size.y), theme::kCardBackground, 4.f * s);
  const ImVec4 clip(p.x, p.y, p.x + size.x - 4 * s, p.y + size.y);
  const std::string shown = FitValue(value, size.x - 16 * s);
  dl->AddText(ImGui::GetFont(), CardValueSize(), ImVec2(p.x + 8 * s, p.y + 5 * s), theme::kCardValue, shown.c_str(),
              nullptr, 0.f, &clip);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + 8 * s, p.y + size.y - ImGui::GetFontSize() - 5 * s),
              theme::kCardLabel, label, nullptr, 0.f, &clip);
  if (ImGui::IsItemHovered() && (!detail.empty() || shown != value)) {
    WrappedTooltip("%s", detail.empty() ? value.c_str() : detail.c_str());
  }
}

// Lays cards out left to right, wrapping at the panel's width.
class CardRow {
 public:
  void Card(const char* id, const std::string& value, const char* label, const std::string& detail) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float standard = theme::kCardWidth * UiScale();
    float w = std::min(CardWidth(value, label), std::max(avail, standard));
    // A wide card that would wrap takes what is left of the row instead, if
    // a standard one fits there: a card cut short beats a taller column.
    const float left = avail + spacing - used_;
    if (used_ > 0 && w + spacing > left && standard + spacing <= left) w = left - spacing;
    const float step = w + spacing;
    if (used_ > 0 && used_ + step <= avail + spacing) {
      ImGui::SameLine();
      used_ += step;
    } else {
      used_ = step;
    }
    DrawCard(id, value, label, detail, w);
  }

 private:
  float used_ = 0;
};

}  // namespace

IdleCause TopCause(const analysis::CauseNs& by_cause) {
  int best = static_cast<int>(IdleCause::kOther);
  for (int c = 0; c < kIdleCauseCount; ++c) {
    if (by_cause[c] > by_cause[best]) best = c;
  }
  return static_cast<IdleCause>(best);
}

void OverviewPanel::Draw(ViewState& state, bool fill) {
  const AnalysisData& a = state.data->analysis;
  step_chart_shot_.reset();
  if (a.report.devices.empty() && a.report.steps.empty()) {
    ImGui::TextWrapped("No GPU activity and no steps in this trace: nothing to analyse. The timeline shows it all.");
    return;
  }
  DrawCards(state);
  ImGui::Spacing();
  DrawRecommendations(state);
  ImGui::Spacing();
  // The chart draws the primary device's breakdown: without a device (a cut
  // file whose kernels were never read) it would be empty, titled "Step time ()".
  if (!a.report.steps.empty() && !a.report.primary_device.empty()) {
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = ImGui::GetContentRegionAvail().x;
    SectionTitle(("Step time (" + a.report.primary_device + ")").c_str());
    float height = theme::kStepChartHeight * UiScale();
    if (fill) {
      // Leave room for the legend (two lines at most) and the cause chart.
      const float reserve =
          3 * ImGui::GetTextLineHeightWithSpacing() + CauseChartHeight(state) + CriticalPathSectionHeight(state);
      height = std::max(height, ImGui::GetContentRegionAvail().y - reserve);
    }
    step_chart_.Draw(state, width, height);
    const float end_y = ImGui::GetCursorScreenPos().y - ImGui::GetStyle().ItemSpacing.y;
    // Only the part on screen can be cropped from the frame.
    const ImVec2 wp = ImGui::GetWindowPos(), ws = ImGui::GetWindowSize();
    PanelShot shot{"step-chart", std::max(start.x - 4 * UiScale(), wp.x), std::max(start.y, wp.y),
                   std::min(start.x + width + 4 * UiScale(), wp.x + ws.x), std::min(end_y + 4 * UiScale(), wp.y + ws.y)};
    if (shot.x1 > shot.x0 && shot.y1 > shot.y0) step_chart_shot_ = shot;
  }
  ImGui::Spacing();
  DrawCauseChart(state);
  ImGui::Spacing();
  DrawCriticalPathSection(state);
}

void OverviewPanel::MenuItems(const ViewState& state, std::optional<PanelShot>* shot,
                              std::vector<ExportRequest>* exports) {
  const analysis::Report& r = state.data->analysis.report;
  if (r.steps.empty() || r.primary_device.empty()) return;
  ImGui::Separator();
  if (ImGui::MenuItem("Save step chart as PNG", nullptr, false, step_chart_shot_.has_value())) *shot = step_chart_shot_;
  if (ImGui::MenuItem("Save step chart as SVG")) {
    StepChartSvgOptions options;
    options.title = "Step time (" + r.primary_device + ")";
    exports->push_back(ExportRequest{"step-chart", "svg", BuildStepChartSvg(r, options)});
  }
  TableExportMenuItems("steps", "steps", [&r] { return StepsTable(r); }, exports);
  // The cards' figures as `report --csv` writes headline.csv.
  TableExportMenuItems("headline figures", "headline", [&r] { return HeadlineTable(r); }, exports);
}

IdleByCause ChartIdleByCause(const analysis::Report& r) {
  IdleByCause out;
  const analysis::Headline h = analysis::ComputeHeadline(r);  // the figures the top-cause card names
  out.ns = h.idle_by_cause;
  out.in_steps = h.idle_in_steps;
  out.title = DeviceWord(r) + std::string(out.in_steps ? " no-kernel time inside steps: idle by cause, and copies"
                                                      : " idle time by cause, first to last kernel") +
              " (" + r.primary_device + ")";
  return out;
}

float OverviewPanel::CauseChartHeight(const ViewState& state) const {
  int rows = 0;
  for (DurNs ns : ChartIdleByCause(state.data->analysis.report).ns) rows += ns > 0;
  if (rows == 0) return 0;
  return 2 * ImGui::GetTextLineHeightWithSpacing() + rows * (theme::kCauseChartRowHeight * UiScale() +
                                                             ImGui::GetStyle().ItemSpacing.y);
}

void OverviewPanel::DrawCards(ViewState& state) {
  const AnalysisData& a = state.data->analysis;
  const analysis::Report& r = a.report;
  // Every figure and label from the one headline (model/analysis/headline.h),
  // as the narrow summary line and the report print them.
  using analysis::HeadlineFigure;
  const analysis::Headline h = analysis::ComputeHeadline(r);
  const auto text = [&](HeadlineFigure f) { return HeadlineFigureText("overview", h, f); };
  const auto label = [&](HeadlineFigure f) { return analysis::HeadlineLabel(h, f); };
  CardRow row;
  row.Card("##steps", text(HeadlineFigure::kSteps), label(HeadlineFigure::kSteps).c_str(),
           "Steps: " + r.step_source_sentence);
  const bool has_spread = h.summed_steps > 1;
  row.Card("##step_time", text(HeadlineFigure::kMeanStep), label(HeadlineFigure::kMeanStep).c_str(),
           has_spread ? "p50 " + FormatDuration(r.step_stats.p50_ns) + ", p90 " + FormatDuration(r.step_stats.p90_ns) +
                            ", p99 " + FormatDuration(r.step_stats.p99_ns) + "\nmin " +
                            FormatDuration(r.step_stats.min_ns) + ", max " + FormatDuration(r.step_stats.max_ns)
                      : "");
  // Throughput beside the step time, once a batch size is set.
  if (h.has_samples) {
    row.Card("##samples", text(HeadlineFigure::kSamplesPerS), label(HeadlineFigure::kSamplesPerS).c_str(),
             "batch size " + std::to_string(h.batch_size) + " over the mean step time\nClick to change it");
    if (ImGui::IsItemClicked(ImGuiMouseButton_Left) || ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
      state.requests.efficiency_settings = true;
    }
  }
  const analysis::DeviceReport* dev = r.primary_device_index >= 0 ? &r.devices[r.primary_device_index] : nullptr;
  const std::string no_steps = "no " + h.device_word + " steps";
  row.Card("##busy", text(HeadlineFigure::kDeviceBusy), label(HeadlineFigure::kDeviceBusy).c_str(),
           h.has_busy ? dev->name + ": share of the step time with a kernel running" : no_steps);
  // Beside busy: how much of that busy time is useful math (peak and its source in the tooltip).
  // A click (either button) opens the Efficiency settings: the peak, its dtype, the batch size.
  row.Card("##mfu", text(HeadlineFigure::kMfu), label(HeadlineFigure::kMfu).c_str(),
           h.mfu_detail + "\nClick to set the peak or the batch size");
  if (ImGui::IsItemClicked(ImGuiMouseButton_Left) || ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
    state.requests.efficiency_settings = true;
  }
  row.Card("##idle", text(HeadlineFigure::kDeviceIdle), label(HeadlineFigure::kDeviceIdle).c_str(),
           h.has_busy ? "share of the step time with no kernel running (copies included); idle " +
                            FormatDuration(dev->idle_ns) + " in gaps between kernels over the active span"
                      : no_steps);
  const bool has_cause = h.has_top_idle_cause;
  row.Card("##cause", text(HeadlineFigure::kTopIdleCause), label(HeadlineFigure::kTopIdleCause).c_str(),
           has_cause ? FormatDuration(h.top_idle_ns) + " of idle time" + (h.idle_in_steps ? " inside steps" : "") +
                           "; click to list these gaps"
                     : "");
  if (has_cause && ImGui::IsItemClicked()) {
    state.links.gap_cause_mask = 1u << static_cast<unsigned>(h.top_idle_cause);
    state.panels.bottom_tab = BottomTab::kIdleGaps;
    state.requests.bottom_tab = true;
  }
  // Ranked by blamed time, as the recommendations rank events.
  const std::string blamed = text(HeadlineFigure::kMostBlamed);
  row.Card("##blamed", blamed, label(HeadlineFigure::kMostBlamed).c_str(),
           !h.most_blamed.empty() ? blamed + "\nblamed for " + FormatDuration(r.top_blamed_ns) +
                                        " of idle time inside steps, in " + std::to_string(r.top_blamed_gaps) + " gaps"
                                  : "");
  // Where the steps came from, and their spread, always on screen.
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextDisabled("Steps: %s", r.step_source_sentence.c_str());
  if (r.steps.size() > 1) {
    ImGui::TextDisabled("Step time p50 %s, p90 %s, p99 %s (min %s, max %s)",
                        FormatDuration(r.step_stats.p50_ns).c_str(), FormatDuration(r.step_stats.p90_ns).c_str(),
                        FormatDuration(r.step_stats.p99_ns).c_str(),
                        FormatDuration(r.step_stats.min_ns).c_str(), FormatDuration(r.step_stats.max_ns).c_str());
  }
  ImGui::PopTextWrapPos();
}

void OverviewPanel::DrawRecommendations(const ViewState& state) {
  const auto& recs = state.data->analysis.report.recommendations;
  const auto& notes = state.data->analysis.report.notes;
  if (recs.empty() && notes.empty()) return;
  SectionTitle("Recommendations");
  for (const std::string& r : recs) {
    ImGui::Bullet();
    ImGui::TextWrapped("%s", PlainCodeSpans(r).c_str());
  }
  // What was left out and why (a cut file): said, not silently missing.
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& n : notes) ImGui::TextDisabled("Note: %s", PlainCodeSpans(n).c_str());
  ImGui::PopTextWrapPos();
}

void OverviewPanel::DrawCauseChart(ViewState& state) {
  const IdleByCause by_cause = ChartIdleByCause(state.data->analysis.report);
  DurNs total = 0, max_ns = 0;
  for (DurNs ns : by_cause.ns) {
    total += ns;
    max_ns = std::max(max_ns, ns);
  }
  if (total <= 0) return;
  SectionTitle(by_cause.title.c_str());
  const float s = UiScale();
  const float label_w = ImGui::CalcTextSize("Host compute").x + 24 * s;
  const float value_w = ImGui::CalcTextSize("000.00 ms  100.0%").x + 8 * s;
  const float bar_w = std::max(20.f, ImGui::GetContentRegionAvail().x - label_w - value_w);
  const float row_h = theme::kCauseChartRowHeight * s;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int c = 0; c < kIdleCauseCount; ++c) {
    const DurNs ns = by_cause.ns[c];
    if (ns <= 0) continue;
    const IdleCause cause = static_cast<IdleCause>(c);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::PushID(c);
    ImGui::InvisibleButton("##cause", ImVec2(label_w + bar_w + value_w, row_h));
    ImGui::PopID();
    const float w = bar_w * static_cast<float>(static_cast<double>(ns) / static_cast<double>(max_ns));
    const float ty = p.y + (row_h - ImGui::GetFontSize()) / 2;
    dl->AddText(ImVec2(p.x, ty), theme::kTrackText, CauseLabel(cause));
    dl->AddRectFilled(ImVec2(p.x + label_w, p.y + 2), ImVec2(p.x + label_w + std::max(w, 1.f), p.y + row_h - 2),
                      CauseColor(cause));
    const std::string value = FormatDuration(ns) + "  " + Percent(static_cast<double>(ns), static_cast<double>(total));
    dl->AddText(ImVec2(p.x + label_w + bar_w + 6 * s, ty), theme::kTrackText, value.c_str());
    if (ImGui::IsItemHovered()) {
      WrappedTooltip("%s: %s of GPU idle time %s\nClick to list these gaps", CauseLabel(cause),
                        Percent(static_cast<double>(ns), static_cast<double>(total)).c_str(),
                        by_cause.in_steps
                            ? "inside the steps (copy rows: a copy runs, no kernel; the idle rows: no GPU op)"
                            : "in gaps");
    }
    if (ImGui::IsItemClicked()) {
      state.links.gap_cause_mask = 1u << static_cast<unsigned>(c);
      state.panels.bottom_tab = BottomTab::kIdleGaps;
      state.requests.bottom_tab = true;
    }
  }
}

}  // namespace stepline::ui
