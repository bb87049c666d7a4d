// Time ruler: tick placement and labels that switch units (ns, µs, ms, s) as
// the view zooms, plus duration formatting shared by the panels.
#pragma once

#include <string>
#include <vector>

#include "model/text_format.h"
#include "model/time.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

struct RulerTick {
  TimeNs t_ns = 0;
  double x_px = 0;
  bool major = false;  // labelled
  std::string label;   // relative to the origin, e.g. "1.25 ms"; empty for minor ticks
};

// Ticks at a 1-2-5 step chosen so labels are at least `min_label_px` apart;
// four minor ticks between labels. Labels show time since `origin_ns`.
std::vector<RulerTick> ComputeRulerTicks(const Viewport& viewport, TimeNs origin_ns, double min_label_px);

// Left x (px from the ruler's left end) of each tick's label, given its
// width in `label_w` (same order as `ticks`; minor ticks have none), or < 0
// when it is not drawn. A label sits `pad` px right of its tick; one that
// would run past the ruler's right end (`ruler_w`) moves left of its tick
// instead, or is left out when even there it would touch its neighbour.
std::vector<double> PlaceRulerLabels(const std::vector<RulerTick>& ticks, const std::vector<float>& label_w,
                                     double ruler_w, double pad);

// Durations read as everywhere else: the text module's (model/text_format.h).
using text::FormatDuration;
// A tick label: like FormatDuration, but the unit follows the tick step so
// every label of one ruler uses the same unit and enough decimals.
std::string FormatTickLabel(TimeNs t_ns, DurNs step_ns);

}  // namespace stepline::ui
