// Host step markers -> a "Steps" track (see xspace_steps.h).
#include "loaders/xspace/xspace_steps.h"

#include <algorithm>

namespace stepline::loaders::xspace {

size_t AddHostStepsTrack(SpaceState* state) {
  if (state->saw_steps_line || state->host_markers.empty() || state->host_pid == INT64_MIN) return 0;
  std::vector<HostStepMarker>& markers = state->host_markers;
  std::sort(markers.begin(), markers.end(), [](const HostStepMarker& a, const HostStepMarker& b) {
    if (a.track != b.track) return a.track < b.track;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    return a.dur_ns > b.dur_ns;  // the enclosing marker first
  });
  TraceBuilder& builder = *state->builder;
  TrackTable::Row row;
  row.kind = TrackKind::kGpuDerived;
  row.process = builder.Process(state->host_pid);
  row.tid = 0;
  row.name = builder.Intern("Steps");
  row.sort_index = INT32_MIN;  // above the host threads, like a device's Steps row
  const TrackId steps = builder.AddTrack(row);
  size_t added = 0;
  TrackId open_track = TrackId::None();
  TimeNs open_end_ns = INT64_MIN;
  for (const HostStepMarker& m : markers) {
    if (m.track == open_track && m.start_ns + m.dur_ns <= open_end_ns) continue;  // nested in a kept marker
    open_track = m.track;
    open_end_ns = m.start_ns + m.dur_ns;
    SliceTable::Row slice;
    slice.track = steps;
    slice.start_ns = m.start_ns;
    slice.dur_ns = m.dur_ns;
    slice.name = m.name;
    builder.AddSlice(slice);
    ++added;
  }
  return added;
}

}  // namespace stepline::loaders::xspace
