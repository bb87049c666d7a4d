// Viewport: the visible time window of the timeline and its mapping to
// pixels. Plain math, no ImGui, unit-tested without a window.
#pragma once

#include <algorithm>

#include "model/time.h"

namespace stepline::ui {

struct Viewport {
  TimeRange visible;       // [start_ns, end_ns) shown across the width
  double width_px = 1.0;   // drawable width in pixels (> 0)

  double px_per_ns() const { return width_px / static_cast<double>(std::max<DurNs>(1, visible.duration_ns())); }
  double TimeToX(TimeNs t) const { return static_cast<double>(t - visible.start_ns) * px_per_ns(); }
  TimeNs XToTime(double x) const;
  // Zooms by `factor` (> 1 zooms in) keeping the time under `x` fixed;
  // never narrower than kMinVisibleNs.
  void ZoomAround(double x, double factor);
  void Pan(double dx_px);  // positive dx moves the content right (earlier times come into view)
  // Shows `range` (clamped to at least kMinVisibleNs).
  void Fit(TimeRange range);

  static constexpr DurNs kMinVisibleNs = 100;
};

// What of the trace the view shows: the visible window cut to the trace's
// `span` (fit-all pads the view; the margins are not data). The caption and
// the ruler's length label both say this one range: they once read
// "view 0 ns - 1.173 s" and "view 1.220 s" side by side.
inline TimeRange VisibleTraceRange(const Viewport& v, TimeRange span) {
  const TimeRange r{std::max(v.visible.start_ns, span.start_ns), std::min(v.visible.end_ns, span.end_ns)};
  return r.empty() ? TimeRange{r.start_ns, r.start_ns} : r;
}

}  // namespace stepline::ui
