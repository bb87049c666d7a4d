// Trace-wide profiler spans: the profiler's own slices that wrap the capture
// (Kineto's "PyTorch Profiler (0)" and "__cupti_profiler__ (-1)" on the
// "Spans" process with category "Trace", "[pytorch|profiler|execution_trace|
// ...]" records, and anything on a "Traces" row). They are not ops: op stats,
// range aggregates and the ops diff skip them, and idle gaps never blame them.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

bool IsProfilerSpanName(std::string_view name);
// By name, by the slice's category "Trace", or by its track or process being
// named "Traces" / "Spans".
bool IsProfilerSpan(const Trace& trace, uint32_t slice);

// IsProfilerSpan for many slices: the name and track tests are cached per
// StringId and per TrackId, so a pass over a million slices stays cheap.
class ProfilerSpanFilter {
 public:
  explicit ProfilerSpanFilter(const Trace& trace);
  bool operator()(uint32_t slice);

 private:
  const Trace& trace_;
  StringId trace_category_;       // "Trace"; None when the trace has no such string
  std::vector<int8_t> by_name_;   // per StringId: -1 unknown, 0 no, 1 yes
  std::vector<int8_t> by_track_;  // per TrackId: -1 unknown, 0 no, 1 yes
};

}  // namespace stepline::analysis
