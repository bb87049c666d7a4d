// TimelinePanel overview strip (GPU busy over the whole trace, the visible
// window marked) and the time ruler with its grid lines.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/xla_modules_table.h"

namespace stepline::ui {

void TimelinePanel::DrawOverview(ViewState& state, ImDrawList* dl, const Rect& r) {
  const TimelineData& data = *state.data;
  const Trace& trace = *data.trace;
  const float header_w = theme::kHeaderWidth * Scale();
  const Rect strip{r.x0 + header_w, r.y0 + 2, r.x1, r.y1 - 2};
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), theme::kRulerBackground);
  // "TPU busy" on a TPU trace: the primary device's word (xla_modules_table.h).
  const std::string busy_label = DeviceWord(data.analysis.report) + " busy (whole trace)";
  const char* label = !data.analysis_ready ? "Analysing..." : data.has_gpu ? busy_label.c_str() : "Whole trace";
  dl->AddText(ImVec2(r.x0 + 6, r.y0 + (r.h() - ImGui::GetFontSize()) / 2), theme::kTrackSubText, label);
  const TimeRange span = trace.span();
  if (span.empty()) return;
  // One bar per pixel column: the mean busy fraction of the bins under it.
  const int columns = std::max(1, static_cast<int>(strip.w()));
  const std::vector<float>& busy = data.analysis.busy_bins.fraction;
  const size_t bins = busy.size();
  for (int c = 0; c < columns && data.has_gpu; ++c) {
    const size_t b0 = bins * c / columns, b1 = std::max(b0 + 1, bins * (c + 1) / columns);
    float sum = 0;
    for (size_t b = b0; b < b1 && b < bins; ++b) sum += busy[b];
    const float frac = sum / static_cast<float>(b1 - b0);
    if (frac <= 0.f) continue;
    const float x = strip.x0 + static_cast<float>(c);
    dl->AddRectFilled(ImVec2(x, strip.y1 - frac * strip.h()), ImVec2(x + 1, strip.y1), theme::kOverviewBusy);
  }
  // The visible window.
  const double px_per_ns = strip.w() / static_cast<double>(span.duration_ns());
  const float wx0 = strip.x0 + static_cast<float>((state.viewport.visible.start_ns - span.start_ns) * px_per_ns);
  const float wx1 = strip.x0 + static_cast<float>((state.viewport.visible.end_ns - span.start_ns) * px_per_ns);
  dl->AddRectFilled(ImVec2(std::max(wx0, strip.x0), strip.y0),
                    ImVec2(std::min(std::max(wx1, wx0 + 2), strip.x1), strip.y1), theme::kOverviewWindow);
}

void TimelinePanel::DrawRuler(ViewState& state, ImDrawList* dl, const Rect& r, const Rect& content) {
  const Trace& trace = *state.trace();
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), theme::kRulerBackground);
  const TimeNs origin = state.ruler_origin_ns.value_or(trace.span().start_ns);
  const auto ticks = ComputeRulerTicks(state.viewport, origin, 110.0 * Scale());
  // Labels stay inside the ruler: the last one once ran off its right end.
  std::vector<float> label_w(ticks.size(), 0.f);
  for (size_t i = 0; i < ticks.size(); ++i) label_w[i] = ImGui::CalcTextSize(ticks[i].label.c_str()).x;
  const std::vector<double> label_x = PlaceRulerLabels(ticks, label_w, r.x1 - r.x0, theme::kRulerLabelPad * Scale());
  dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, content.y1), true);
  for (size_t i = 0; i < ticks.size(); ++i) {
    const RulerTick& t = ticks[i];
    const float x = r.x0 + static_cast<float>(t.x_px);
    const float tick_h = t.major ? r.h() * 0.45f : r.h() * 0.2f;
    dl->AddLine(ImVec2(x, r.y1 - tick_h), ImVec2(x, r.y1), theme::kRulerTick);
    if (t.major) {
      dl->AddLine(ImVec2(x, content.y0), ImVec2(x, content.y1), theme::kGridLine);
      if (label_x[i] >= 0) {
        dl->AddText(ImVec2(r.x0 + static_cast<float>(label_x[i]), r.y0 + 2), theme::kRulerText, t.label.c_str());
      }
    }
  }
  dl->PopClipRect();
  // The length of trace in view (the caption's range) at the left of the
  // header column, above the track names, inside the column: it once ran
  // into the ruler's first tick labels.
  const std::string length = FormatDuration(VisibleTraceRange(state.viewport, trace.span()).duration_ns());
  const float header_w = theme::kHeaderWidth * Scale();
  const float room = header_w - 12.f;
  std::string span_label = "view " + length;
  if (ImGui::CalcTextSize(span_label.c_str()).x > room) span_label = length;
  const ImVec2 at(r.x0 - header_w + 6, r.y0 + 4);
  dl->PushClipRect(at, ImVec2(r.x0 - 6, r.y1), true);
  dl->AddText(at, theme::kRulerText, span_label.c_str());
  dl->PopClipRect();
}

}  // namespace stepline::ui
