// Viewport math; see viewport.h.
#include "ui/timeline/viewport.h"

#include <algorithm>
#include <cmath>

namespace stepline::ui {

TimeNs Viewport::XToTime(double x) const {
  return visible.start_ns + static_cast<TimeNs>(std::llround(x / px_per_ns()));
}

void Viewport::ZoomAround(double x, double factor) {
  if (!(factor > 0.0) || !std::isfinite(factor)) return;
  const TimeNs anchor = XToTime(x);
  const double new_dur = std::max<double>(static_cast<double>(kMinVisibleNs),
                                          static_cast<double>(visible.duration_ns()) / factor);
  const double anchor_frac = std::clamp(x / width_px, 0.0, 1.0);
  const TimeNs start = anchor - static_cast<TimeNs>(std::llround(new_dur * anchor_frac));
  visible = TimeRange{start, start + static_cast<TimeNs>(std::llround(new_dur))};
}

void Viewport::Pan(double dx_px) {
  const TimeNs shift = static_cast<TimeNs>(std::llround(dx_px / px_per_ns()));
  visible.start_ns -= shift;
  visible.end_ns -= shift;
}

void Viewport::Fit(TimeRange range) {
  if (range.duration_ns() < kMinVisibleNs) {
    const TimeNs mid = range.start_ns + range.duration_ns() / 2;
    range = TimeRange{mid - kMinVisibleNs / 2, mid - kMinVisibleNs / 2 + kMinVisibleNs};
  }
  visible = range;
}

}  // namespace stepline::ui
