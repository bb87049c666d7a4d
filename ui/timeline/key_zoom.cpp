// The W/S zoom curve; see key_zoom.h.
#include "ui/timeline/key_zoom.h"

#include <algorithm>
#include <cmath>

namespace stepline::ui {

double KeyZoomSpeed(double held_s) {
  using C = KeyZoomCurve;
  if (held_s < C::kHoldDelay) return 0.0;
  const double ramp = std::min(1.0, (held_s - C::kHoldDelay) / C::kRampSeconds);
  return C::kStartSpeed + (C::kTopSpeed - C::kStartSpeed) * ramp;
}

double KeyZoomFactor(double held_s, double dt_s) {
  if (held_s <= 0.0) return KeyZoomCurve::kTapFactor;
  // The part of this frame after the hold delay, at the speed it ends with
  // (a frame is short next to the ramp; a slow frame zooms more, not less).
  const double since = std::clamp(held_s - KeyZoomCurve::kHoldDelay, 0.0, std::max(0.0, dt_s));
  return std::exp2(KeyZoomSpeed(held_s) * since);
}

}  // namespace stepline::ui
