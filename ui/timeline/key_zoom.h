// How far W (in) and S (out) zoom: a tap is one 1.25x step; held, the zoom
// goes on continuously and speeds up with the hold time, so a long hold
// crosses from seconds to microseconds in a few seconds while a short one
// stays easy to stop. Plain math, no ImGui.
//
// The curve (speed in doublings of zoom per second, h = seconds held):
//   h <  kHoldDelay (0.25 s):  nothing more than the tap's step
//   h >= kHoldDelay:           2 + 6 * min(1, (h - 0.25) / 1.5)
// that is 4x per second when the hold starts, rising linearly to 256x per
// second after 1.75 s (ImGui's key repeat gave a flat 1.25^20 = 86x/s).
#pragma once

namespace stepline::ui {

struct KeyZoomCurve {
  static constexpr double kTapFactor = 1.25;
  static constexpr double kHoldDelay = 0.25;        // s before a hold zooms on its own
  static constexpr double kStartSpeed = 2.0;        // doublings per second at kHoldDelay
  static constexpr double kTopSpeed = 8.0;          // doublings per second when fully sped up
  static constexpr double kRampSeconds = 1.5;       // from kStartSpeed to kTopSpeed
};

// Zoom speed (doublings per second) after `held_s` seconds of holding.
double KeyZoomSpeed(double held_s);
// The zoom factor (>= 1) for one frame of a held key: the frame took `dt_s`
// and the key has now been held `held_s`. The press itself (held_s == 0)
// is the tap's kTapFactor.
double KeyZoomFactor(double held_s, double dt_s);

}  // namespace stepline::ui
