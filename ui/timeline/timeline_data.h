// TimelineData: a loaded trace plus the indices the timeline draws from and
// the analysis the panels show. The window builds it in steps so the timeline
// shows before the analysis is done: TimelineIndices on the load
// thread (only what the first frame draws), then its FlowIndex and the
// TimelineAnalysis on worker threads while the timeline is already on screen;
// the flows appear in place, and the UI thread joins the analysis to the
// timeline as a new TimelineData.
#pragma once

#include <atomic>
#include <future>
#include <memory>
#include <vector>

#include "model/trace.h"
#include "ui/analysis_data.h"
#include "ui/memory/memory_series.h"
#include "ui/timeline/copy_rows.h"
#include "ui/timeline/flow_index.h"
#include "ui/timeline/gap_index.h"
#include "ui/timeline/range_arg_max.h"
#include "ui/timeline/track_depth_index.h"

namespace stepline::ui {

// What the timeline draws from that the trace alone determines (no analysis).
struct TimelineIndices {
  // kNow: everything, here (headless commands, tests). kLater: what the first
  // frame draws; the flows wait for BuildFlows (the window calls it on a
  // worker after the hand-over) and flows() is null until then.
  enum class Flows : uint8_t { kNow, kLater };
  // Gathers the copy rows on a second thread while this one builds the depths.
  explicit TimelineIndices(const Trace& trace, Flows flows = Flows::kNow);
  TimelineIndices(const TimelineIndices&) = delete;
  TimelineIndices& operator=(const TimelineIndices&) = delete;

  TrackDepthIndex depths;
  CopyRows copies;
  // Per track: the smallest and largest counter sample (0, 0 without samples),
  // so counter rows scale without scanning every sample each frame.
  std::vector<std::pair<double, double>> counter_range;
  // Range arg-max over trace->counters().value(), so a counter row finds the
  // highest sample of each pixel column without visiting the column's samples.
  RangeArgMax<double> counter_max;

  // The flows by time and by target, once built; null before (draw no arrows
  // and list no links then). Any thread.
  const FlowIndex* flows() const { return flows_.get(); }
  // Builds the flow index of `trace` (this index's trace) and publishes it;
  // once (later calls do nothing). Any thread; a few tenths of a second on
  // the 10M-slice demo.
  void BuildFlows(const Trace& trace) const;

 private:
  TimelineIndices(const Trace& trace, Flows flows, std::future<CopyRows> copies);

  // Published once by BuildFlows; the rest of this struct never changes.
  mutable FlowIndexSlot flows_;
};

// What the analysis adds: the panels' data and the timeline's analysis rows.
struct TimelineAnalysis {
  TimelineAnalysis() = default;  // empty: the analysis is still running
  // Computes it; returns early with a partial result (to be discarded) once
  // `*cancel` is set.
  explicit TimelineAnalysis(const Trace& trace, const std::atomic<bool>* cancel = nullptr,
                            const analysis::EfficiencyOptions& efficiency = {});

  analysis::EfficiencyOptions efficiency;  // what the analysis was computed with

  // Steps, breakdowns, idle gaps, op and kernel stats, recommendations.
  AnalysisData analysis;
  // analysis.gaps in compact columns with a longest-gap index, for the gap
  // overlay (declared after `analysis`, which it is built from).
  GapIndex gap_index{analysis};
  // Each memory pool's levels for the timeline's Memory rows.
  std::vector<MemorySeries> memory;
  // Some device ran a kernel (the overview strip then shows analysis.busy_bins).
  bool has_gpu = false;
};

struct TimelineData {
  // Indices and analysis, built now (headless commands, tests); `efficiency`:
  // the peak and batch size the analysis takes (--peak-tflops, --batch-size).
  explicit TimelineData(std::shared_ptr<const Trace> t, const analysis::EfficiencyOptions& efficiency = {});
  // The timeline alone: analysis_ready is false and the analysis empty.
  TimelineData(std::shared_ptr<const Trace> t, std::shared_ptr<const TimelineIndices> i);
  // `pending`'s trace and indices (shared, not copied) with `done` moved in.
  TimelineData(const TimelineData& pending, TimelineAnalysis&& done);
  TimelineData(const TimelineData&) = delete;
  TimelineData& operator=(const TimelineData&) = delete;

  std::shared_ptr<const Trace> trace;
  // Unique per TimelineData in this process, never reused (an address can be:
  // a new trace allocated where a freed one was). Panel caches key on it, so
  // the data with its analysis, a new TimelineData, refreshes them.
  const uint64_t generation;
  std::shared_ptr<const TimelineIndices> indices;
  // The parts of `indices`, by their old names (they were members).
  const TrackDepthIndex& depths;
  const CopyRows& copies;
  const std::vector<std::pair<double, double>>& counter_range;
  const RangeArgMax<double>& counter_max;
  // indices->flows(): null until the flows are indexed (see TimelineIndices).
  const FlowIndex* flows() const { return indices->flows(); }

  // False while the analysis runs: the members below are empty and the
  // panels that read them say "Analysing...".
  const bool analysis_ready;
  // The peak and batch size the analysis was computed with (default while it runs).
  analysis::EfficiencyOptions efficiency;
  bool has_gpu = false;
  AnalysisData analysis;
  GapIndex gap_index;
  std::vector<MemorySeries> memory;

 private:
  // Every public constructor: the trace, its indices and an analysis (empty
  // while it runs).
  TimelineData(std::shared_ptr<const Trace> t, std::shared_ptr<const TimelineIndices> i, bool ready,
               TimelineAnalysis&& done);
};

}  // namespace stepline::ui
