// AnalysisData: the analysis the panels show, computed once per trace on a
// worker thread (TimelineAnalysis) while the timeline is already on screen. It is the
// TraceAnalysis (ids: gaps with their SliceIds, op and kernel stats keyed by
// StringId) plus its Report (the same rows with names, for the tables and
// their CSV). Nothing in ui/ derives an analysis of its own.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"
#include "model/trace.h"

namespace stepline::ui {

struct AnalysisData : analysis::TraceAnalysis {
  analysis::Report report;  // ResolveReport of this analysis
};

// ComputeAnalysis with the default options but `efficiency` (the peak and
// batch size of the command line or the window's Efficiency settings), then
// ResolveReport; stops early (a partial result, to be discarded) once
// `*cancel` is set.
AnalysisData ComputeAnalysisData(const Trace& trace, const std::atomic<bool>* cancel = nullptr,
                                 const analysis::EfficiencyOptions& efficiency = {});

// The index into report.devices (== devices) of device ordinal `device_id`, -1 none.
inline int32_t DeviceIndexOfId(const AnalysisData& a, int32_t device_id) { return a.DeviceIndexOfId(device_id); }
// The event a gap's arrow starts from: its most blamed event, else the launch
// call of the kernel that ended it (None when neither is known).
SliceId ArrowSource(const analysis::IdleGap& g);

// The gaps of `device` overlapping [range], as an index range into `gaps`.
inline std::pair<uint32_t, uint32_t> GapsInRange(const AnalysisData& a, uint32_t device, TimeRange range) {
  return a.GapsInRange(device, range);
}

}  // namespace stepline::ui
