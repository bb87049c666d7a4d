// BusyBins: the share of each bin of a time range covered by the union of
// some intervals; the overview strip draws the kernel busy share of the whole
// trace from it. Uses MergeIntervals, so overlapping kernels count once.
#pragma once

#include <vector>

#include "model/analysis/device_activity.h"

namespace stepline::analysis {

// Bins of the overview strip: more than the widest strip has pixels.
inline constexpr size_t kBusyBinCount = 2048;

struct BusyBins {
  TimeRange range;               // the binned range (the trace span)
  std::vector<float> fraction;   // per bin, 0..1: covered share of the bin
};

// `bins` equal bins over `range`; intervals may be unsorted and overlapping.
BusyBins ComputeBusyBins(std::vector<Interval> intervals, TimeRange range, size_t bins);

}  // namespace stepline::analysis
