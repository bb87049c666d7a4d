// BodyLayout: the body's split and the overview's summary line; see body_layout.h.
#include "ui/body_layout.h"

#include <algorithm>

#include "ui/analysis_format.h"
#include "ui/overview_panel.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

BodyLayout ComputeBodyLayout(const PanelLayout& panels, float window_w, float avail_w, float avail_h, float splitter,
                             float scale) {
  BodyLayout out;
  if (panels.show_overview) {
    if (window_w < kOverviewCollapseWidth) {
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
  return out;
}

std::string OverviewSummaryLine(const AnalysisData& a) {
  const analysis::Report& r = a.report;
  std::string line = std::to_string(r.steps.size()) + (r.steps.size() == 1 ? " step" : " steps");
  if (!r.steps.empty()) {
    line += "  |  step " + FormatDuration(a.step_stats.mean_ns);
    if (r.steps.size() > 1) line += " \u00b1 " + FormatDuration(a.step_stats.sample_std_ns);
  }
  const analysis::DeviceReport* dev = r.primary_device_index >= 0 ? &r.devices[r.primary_device_index] : nullptr;
  if (dev != nullptr) {
    const double span = static_cast<double>(dev->active_span.duration_ns());
    line += "  |  GPU busy " + Percent(static_cast<double>(dev->busy_ns), span);
    const IdleByCause by_cause = ChartIdleByCause(r);
    const analysis::IdleCause top = TopCause(by_cause.ns);
    const DurNs top_ns = by_cause.ns[static_cast<size_t>(top)];
    if (top_ns > 0) line += "  |  top idle cause " + std::string(CauseLabel(top)) + " (" + FormatDuration(top_ns) + ")";
  } else {
    line += "  |  no GPU activity";
  }
  return line;
}

}  // namespace stepline::ui
