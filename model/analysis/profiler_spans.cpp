// Which slices are the profiler's own trace-wide spans (see profiler_spans.h).
#include "model/analysis/profiler_spans.h"

namespace stepline::analysis {

bool IsProfilerSpanName(std::string_view name) {
  return name.starts_with("PyTorch Profiler (") || name.starts_with("[pytorch|profiler|") ||
         name.starts_with("__cupti_profiler__ (");
}

bool IsProfilerSpan(const Trace& trace, uint32_t slice) {
  const SliceTable& s = trace.slices();
  if (IsProfilerSpanName(trace.str(s.name()[slice]))) return true;
  if (trace.str(s.category()[slice]) == "Trace") return true;
  const TrackId track = s.track()[slice];
  const std::string_view track_name = trace.str(trace.tracks().name(track));
  if (track_name == "Traces") return true;
  const std::string_view process = trace.str(trace.processes().name(trace.tracks().process(track)));
  return process == "Traces" || process == "Spans";
}

}  // namespace stepline::analysis
