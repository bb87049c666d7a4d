// TimelineData: a loaded trace plus the indices the timeline draws from,
// built once per trace (on the load thread, so the window never waits).
#pragma once

#include <memory>
#include <vector>

#include "model/trace.h"
#include "ui/analysis_data.h"
#include "ui/memory/memory_series.h"
#include "ui/timeline/copy_rows.h"
#include "ui/timeline/flow_window.h"
#include "ui/timeline/gap_index.h"
#include "ui/timeline/range_arg_max.h"
#include "ui/timeline/track_depth_index.h"

namespace stepline::ui {

struct TimelineData {
  explicit TimelineData(std::shared_ptr<const Trace> t);

  std::shared_ptr<const Trace> trace;
  // Unique per TimelineData in this process, never reused (an address can be:
  // a new trace allocated where a freed one was). Panel caches key on it.
  const uint64_t generation;
  TrackDepthIndex depths;
  CopyRows copies;
  // Some device ran a kernel (the overview strip then shows analysis.busy_bins).
  bool has_gpu = false;
  // Flow rows sorted by their `to` slice (the table itself is sorted by `from`).
  std::vector<uint32_t> flows_by_to;
  // Flows by time, for drawing every arrow in view without visiting them all.
  FlowWindow flow_window;
  // Per track: the smallest and largest counter sample (0, 0 without samples),
  // so counter rows scale without scanning every sample each frame.
  std::vector<std::pair<double, double>> counter_range;
  // Range arg-max over trace->counters().value(), so a counter row finds the
  // highest sample of each pixel column without visiting the column's samples.
  RangeArgMax<double> counter_max;
  // Steps, breakdowns, idle gaps, op and kernel stats, recommendations.
  AnalysisData analysis;
  // analysis.gaps in compact columns with a longest-gap index, for the gap
  // overlay (declared after `analysis`, which it is built from).
  GapIndex gap_index;
  // Each memory pool's levels for the timeline's Memory rows (issue #19).
  std::vector<MemorySeries> memory;
};

}  // namespace stepline::ui
