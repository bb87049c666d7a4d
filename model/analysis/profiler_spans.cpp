// Which slices are the profiler's own trace-wide spans (see profiler_spans.h).
#include "model/analysis/profiler_spans.h"

namespace stepline::analysis {

bool IsProfilerSpanName(std::string_view name) {
  return name.starts_with("PyTorch Profiler (") || name.starts_with("[pytorch|profiler|") ||
         name.starts_with("__cupti_profiler__ (");
}

namespace {

bool IsProfilerTrack(const Trace& trace, TrackId track) {
  if (trace.str(trace.tracks().name(track)) == "Traces") return true;
  const std::string_view process = trace.str(trace.processes().name(trace.tracks().process(track)));
  return process == "Traces" || process == "Spans";
}

}  // namespace

bool IsProfilerSpan(const Trace& trace, uint32_t slice) {
  const SliceTable& s = trace.slices();
  return IsProfilerSpanName(trace.str(s.name()[slice])) || trace.str(s.category()[slice]) == "Trace" ||
         IsProfilerTrack(trace, s.track()[slice]);
}

ProfilerSpanFilter::ProfilerSpanFilter(const Trace& trace)
    : trace_(trace),
      trace_category_(trace.strings().Find("Trace")),
      by_name_(trace.strings().size(), -1),
      by_track_(trace.tracks().size(), -1) {}

bool ProfilerSpanFilter::operator()(uint32_t slice) {
  const SliceTable& s = trace_.slices();
  if (!trace_category_.is_none() && s.category()[slice] == trace_category_) return true;
  int8_t& name = by_name_[s.name()[slice].index()];
  if (name < 0) name = IsProfilerSpanName(trace_.str(s.name()[slice])) ? 1 : 0;
  if (name == 1) return true;
  int8_t& track = by_track_[s.track()[slice].index()];
  if (track < 0) track = IsProfilerTrack(trace_, s.track()[slice]) ? 1 : 0;
  return track == 1;
}

}  // namespace stepline::analysis
