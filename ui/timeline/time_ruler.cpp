// Ruler ticks and time formatting; see time_ruler.h.
#include "ui/timeline/time_ruler.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace stepline::ui {
namespace {

struct Unit {
  DurNs ns;
  const char* name;
};
constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "\xC2\xB5s"}, {1, "ns"}};

const Unit& UnitFor(DurNs magnitude) {
  for (const Unit& u : kUnits) {
    if (magnitude >= u.ns) return u;
  }
  return kUnits[3];
}

std::string Format(double value, int decimals, const char* unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, value, unit);
  return buf;
}

}  // namespace

std::string FormatTickLabel(TimeNs t_ns, DurNs step_ns) {
  // A 500 µs step reads better as 0.5 ms: pick the unit from twice the step.
  const Unit& u = UnitFor(std::max<DurNs>(1, step_ns * 2));
  if (u.ns == 1) return Format(static_cast<double>(t_ns), 0, u.name);
  // Enough decimals to tell neighbouring ticks apart.
  int decimals = 0;
  for (DurNs s = step_ns; s % u.ns != 0 && decimals < 3; s *= 10) ++decimals;
  return Format(static_cast<double>(t_ns) / static_cast<double>(u.ns), decimals, u.name);
}

std::vector<RulerTick> ComputeRulerTicks(const Viewport& viewport, TimeNs origin_ns, double min_label_px) {
  std::vector<RulerTick> ticks;
  const double ns_per_px = 1.0 / viewport.px_per_ns();
  const double min_step = std::max(1.0, min_label_px * ns_per_px);
  // Smallest 1-2-5 x 10^k step >= min_step.
  double step = std::pow(10.0, std::floor(std::log10(min_step)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (step * m >= min_step) {
      step *= m;
      break;
    }
  }
  const DurNs major = static_cast<DurNs>(std::llround(step));
  const DurNs minor = std::max<DurNs>(1, major / 5);
  const TimeNs rel_start = viewport.visible.start_ns - origin_ns;
  // First minor tick at or after the left edge (floor division for negatives).
  TimeNs first = rel_start / minor * minor;
  if (first < rel_start) first += minor;
  for (TimeNs rel = first; rel + origin_ns <= viewport.visible.end_ns; rel += minor) {
    RulerTick tick;
    tick.t_ns = rel + origin_ns;
    tick.x_px = viewport.TimeToX(tick.t_ns);
    tick.major = rel % major == 0;
    if (tick.major) tick.label = FormatTickLabel(rel, major);
    ticks.push_back(std::move(tick));
    if (ticks.size() > 10000) break;  // defensive: never a runaway loop
  }
  return ticks;
}

std::vector<double> PlaceRulerLabels(const std::vector<RulerTick>& ticks, const std::vector<float>& label_w,
                                     double ruler_w, double pad) {
  std::vector<double> x(ticks.size(), -1.0);
  double prev_end = -pad;  // right end of the last label drawn
  for (size_t i = 0; i < ticks.size() && i < label_w.size(); ++i) {
    if (!ticks[i].major || ticks[i].label.empty()) continue;
    const double w = label_w[i];
    double at = ticks[i].x_px + pad;
    // The last label would be cut by the ruler's end: left of its tick.
    if (at + w > ruler_w) at = ticks[i].x_px - pad - w;
    if (at < 0 || at + w > ruler_w || at < prev_end + pad) continue;
    x[i] = at;
    prev_end = at + w;
  }
  return x;
}

}  // namespace stepline::ui
