// BodyLayout: the body's split and the overview's summary line; see body_layout.h.
#include "ui/body_layout.h"

#include <algorithm>

#include "model/analysis/headline.h"
#include "ui/analysis_format.h"
#include "ui/headline_text.h"
#include "ui/overview_panel.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

BodyLayout ComputeBodyLayout(const PanelLayout& panels, float window_w, float avail_w, float avail_h, float splitter,
                             float scale, float layout_scale) {
  BodyLayout out;
  if (panels.show_overview) {
    if (NarrowWindow(window_w, layout_scale > 0 ? layout_scale : scale)) {
      out.summary_strip = true;
    } else {
      out.overview_column = true;
      const float wanted = (panels.overview_width > 0 ? panels.overview_width : theme::kOverviewPaneWidth) * scale;
      const float most = std::max(200.f, avail_w / 3.f);
      out.overview_w = std::clamp(wanted, 200.f, most);
    }
  }
  // The timeline keeps at least half of the height the two share.
  const float total = avail_h;  // the summary strip, when shown, is drawn before and not counted
  const float wanted_bottom = (panels.bottom_height > 0 ? panels.bottom_height : theme::kBottomPaneHeight) * scale;
  const float most_bottom = std::max(80.f, total * 0.5f - splitter);
  out.bottom_h = std::clamp(wanted_bottom, std::min(80.f, most_bottom), most_bottom);
  out.timeline_h = total - out.bottom_h - splitter;
  if (!out.overview_column) {
    // A third of the width, enough for "Duration 1.234 ms" and a kernel name's start.
    out.details_beside_tables = true;
    out.details_w = std::clamp(avail_w / 3.f, std::min(260.f * scale, avail_w * 0.5f), 460.f * scale);
  }
  return out;
}

std::string OverviewSummaryLine(const AnalysisData& a) {
  // The overview's figures in one line, from the same headline: it once
  // computed its own "GPU busy" (kernel union over the active span, 59.5%
  // where the tiles and the report said 54.9%).
  using analysis::HeadlineFigure;
  const analysis::Headline h = analysis::ComputeHeadline(a.report);
  const auto text = [&](HeadlineFigure f) { return HeadlineFigureText("summary line", h, f); };
  std::string line = text(HeadlineFigure::kSteps) + (h.steps == 1 ? " step" : " steps");
  if (h.steps > 0) line += "  |  step " + text(HeadlineFigure::kMeanStep);
  if (h.has_samples) line += "  |  " + text(HeadlineFigure::kSamplesPerS) + " samples/s";
  if (a.report.primary_device_index < 0) return line + "  |  no GPU activity";
  line += "  |  " + analysis::HeadlineLabel(h, HeadlineFigure::kDeviceBusy) + " " + text(HeadlineFigure::kDeviceBusy);
  if (h.has_top_idle_cause) {
    line += "  |  top idle cause " + text(HeadlineFigure::kTopIdleCause) + " (" + FormatDuration(h.top_idle_ns) + ")";
  }
  return line;
}

}  // namespace stepline::ui
