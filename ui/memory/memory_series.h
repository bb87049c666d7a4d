// MemorySeries: one memory pool's levels as the timeline's Memory row draws
// them, built once per trace beside TimelineData's other indices:
// the samples' times, allocated and reserved levels with range-max indices so
// a pixel column's highest level costs the same for 1k or 1M events, the peak
// and the OOM markers.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"
#include "ui/timeline/range_arg_max.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

struct MemorySeries {
  std::string name;        // the pool's name ("GPU 0")
  int32_t device_id = -1;  // the device group it is drawn under; -1: none (CPU, host allocators)
  bool relative = false;
  std::vector<TimeNs> ts;
  std::vector<TimeNs> ts_samples;  // every kSampleStride-th of ts (sampled_search.h)
  std::vector<double> allocated;
  std::vector<double> reserved;  // empty when the pool records none
  RangeArgMax<double> allocated_max, reserved_max;
  double top = 0;  // the row's scale: the highest level of either series
  TimeNs peak_ts = 0;
  double peak = 0;
  std::vector<TimeNs> ooms;
};

// One series per pool of `table`, in its order; only GPU and TPU pools get a
// device_id (their rows sit in that device's group). The peaks are the
// analysis' (TraceAnalysis::memory, one entry per pool of `table`): the window
// marks the peak the Memory panel and `report` name.
std::vector<MemorySeries> BuildMemorySeries(const MemoryTable& table, const analysis::MemoryAnalysis& analysis);

// The level in force at `t` (the last sample at or before it); NaN before the first.
double SeriesValueAt(std::span<const TimeNs> ts, std::span<const double> values, TimeNs t);

// The samples a step chart draws in each pixel column of `viewport`: those
// at [begin, end) start in `column`, and the last of them holds until x_end
// (exclusive; the next sample's column, or the width). Found once per row
// and used for both of its series. O(width * log samples); `ts_samples`
// (every kSampleStride-th of ts, or empty) keeps the searches in cache.
struct StepColumnRun {
  int column = 0;
  uint32_t begin = 0, end = 0;
  int x_end = 0;
};
void FindStepColumnRuns(std::span<const TimeNs> ts, std::span<const TimeNs> ts_samples, const Viewport& viewport,
                        int width, std::vector<StepColumnRun>* runs);

// A step chart's columns, one per pixel in [0, width): the highest sample
// starting in the column, else the level held from the last earlier sample,
// else NaN. `runs` from FindStepColumnRuns over the same width.
void FillStepColumns(std::span<const StepColumnRun> runs, std::span<const double> values,
                     const RangeArgMax<double>& value_max, int width, std::vector<float>* columns);

// Both in one: the columns of one series.
void BuildStepColumns(std::span<const TimeNs> ts, std::span<const TimeNs> ts_samples, std::span<const double> values,
                      const RangeArgMax<double>& value_max, const Viewport& viewport, int width,
                      std::vector<float>* columns);

}  // namespace stepline::ui
