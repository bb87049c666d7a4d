// Track ordering and sizing; see track_layout.h.
#include "ui/timeline/track_layout.h"

#include <algorithm>
#include <tuple>

#include "model/analysis/device_activity.h"

namespace stepline::ui {
namespace {

// Within a group: markers, then threads or streams (and a device's gathered
// copy rows), then profiler-derived device rows (XProf's Steps, TensorFlow
// Ops, name scopes: often tall, and a summary of the streams above them),
// async rows, counters.
int KindRank(TrackKind k) {
  switch (k) {
    case TrackKind::kMarkers: return 0;
    case TrackKind::kHostThread: return 2;
    case TrackKind::kGpuStream: return 2;
    case TrackKind::kGpuDerived: return 3;
    case TrackKind::kAsync: return 4;
    case TrackKind::kCounter: return 5;
  }
  return 6;
}

uint64_t EventCount(const Trace& trace, TrackId t) {
  const auto& r = trace.tracks().ranges(t);
  return uint64_t{r.slice_end} - r.slice_begin + (r.instant_end - r.instant_begin) + (r.counter_end - r.counter_begin);
}

}  // namespace

std::string ProcessLabel(const Trace& trace, ProcessId p) {
  const std::string_view name = trace.str(trace.processes().name(p));
  const int32_t device = trace.processes().device_id(p);
  std::string label;
  // "GPU 0", "TPU 0", "MTIA 17": the analysis's device names.
  if (device >= 0) label = analysis::DeviceLabel(analysis::DeviceKindOfProcessName(name), device, name);
  if (!name.empty() && name != label) {
    if (!label.empty()) label += "  ";
    label += name;
  }
  if (label.empty()) label = "Process " + std::to_string(trace.processes().pid(p));
  return label;
}

std::string TrackLabel(const Trace& trace, TrackId t) {
  const std::string_view name = trace.str(trace.tracks().name(t));
  if (!name.empty()) return std::string(name);
  switch (trace.tracks().kind(t)) {
    case TrackKind::kGpuStream: return "Stream " + std::to_string(trace.tracks().tid(t));
    case TrackKind::kHostThread: return "Thread " + std::to_string(trace.tracks().tid(t));
    case TrackKind::kAsync: return "Async " + std::to_string(trace.tracks().tid(t));
    default: return std::string(TrackKindName(trace.tracks().kind(t)));
  }
}

TrackLayout ComputeTrackLayout(const Trace& trace, const TrackDepthIndex& depths, const CopyRows& copies,
                               const LayoutChoices& choices, const LayoutMetrics& m,
                               std::span<const int32_t> memory_devices) {
  std::set<size_t> memory_done;  // series already placed (a device id may name several processes)
  const TrackTable& tracks = trace.tracks();
  const ProcessTable& processes = trace.processes();
  TrackLayout layout;
  float y = 0;
  auto add_track_row = [&](TrackId t, bool pinned) {
    LayoutRow row;
    row.process = tracks.process(t);
    row.track = t;
    row.pinned = pinned;
    row.event_count = EventCount(trace, t);
    row.y = y;
    if (tracks.kind(t) == TrackKind::kCounter) {
      row.kind = RowKind::kCounterTrack;
      row.height = m.counter_height;
    } else {
      row.kind = RowKind::kSliceTrack;
      // Instant-only tracks still get one row.
      row.levels = static_cast<uint16_t>(std::max<size_t>(1, depths.depth_count(t)));
      row.height = row.levels * m.slice_row_height;
    }
    y += row.height + m.track_gap;
    layout.rows.push_back(row);
  };
  auto add_header = [&](ProcessId p, bool collapsed, uint64_t events) {
    LayoutRow row;
    row.kind = RowKind::kGroupHeader;
    row.process = p;
    row.collapsed = collapsed;
    row.event_count = events;
    row.y = y;
    row.height = m.group_header_height;
    y += row.height;
    layout.rows.push_back(row);
  };

  // Tracks per process, in display order.
  std::vector<std::vector<TrackId>> by_process(processes.size());
  for (size_t i = 0; i < tracks.size(); ++i) {
    const TrackId t = TrackId::FromIndex(i);
    if (choices.hidden_tracks.count(t.value)) continue;
    if (EventCount(trace, t) == 0) continue;  // nothing to draw
    by_process[tracks.process(t).index()].push_back(t);
  }
  for (auto& list : by_process) {
    std::stable_sort(list.begin(), list.end(), [&](TrackId a, TrackId b) {
      return std::make_tuple(KindRank(tracks.kind(a)), tracks.sort_index(a), tracks.tid(a), a.value) <
             std::make_tuple(KindRank(tracks.kind(b)), tracks.sort_index(b), tracks.tid(b), b.value);
    });
  }

  // Pinned tracks move to the top group (they are not repeated below).
  std::vector<TrackId> pinned;
  for (uint32_t id : choices.pinned_tracks) {
    if (id < tracks.size() && !choices.hidden_tracks.count(id) && EventCount(trace, TrackId(id)) > 0) {
      pinned.push_back(TrackId(id));
    }
  }
  if (!pinned.empty()) {
    uint64_t events = 0;
    for (TrackId t : pinned) events += EventCount(trace, t);
    add_header(ProcessId::None(), false, events);
    for (TrackId t : pinned) add_track_row(t, true);
    for (auto& list : by_process) {
      std::erase_if(list, [&](TrackId t) { return choices.pinned_tracks.count(t.value) > 0; });
    }
  }

  // Devices first, then the processes in their own order. The GPU rows are
  // what the viewer is for, and host processes are often tall (dozens of
  // threads, deep Python stacks) and would push them below the fold;
  // TensorBoard's trace viewer also shows /device:GPU before /host:CPU.
  std::vector<ProcessId> order;
  for (size_t i = 0; i < processes.size(); ++i) order.push_back(ProcessId::FromIndex(i));
  std::stable_sort(order.begin(), order.end(), [&](ProcessId a, ProcessId b) {
    return std::make_tuple(processes.device_id(a) < 0, processes.sort_index(a), processes.pid(a)) <
           std::make_tuple(processes.device_id(b) < 0, processes.sort_index(b), processes.pid(b));
  });
  for (ProcessId p : order) {
    const std::vector<TrackId>& list = by_process[p.index()];
    const int32_t device = processes.device_id(p);
    if (list.empty()) continue;
    uint64_t events = 0;
    for (TrackId t : list) events += EventCount(trace, t);
    const bool collapsed = choices.collapsed_processes.count(p.value) > 0;
    add_header(p, collapsed, events);
    if (collapsed) continue;
    size_t i = 0;
    for (; i < list.size() && KindRank(tracks.kind(list[i])) <= 2; ++i) add_track_row(list[i], false);
    // A device's gathered copy rows follow its streams (once per device, on
    // the process that carries that device id).
    if (device >= 0) {
      for (GpuKind kind : {GpuKind::kMemcpyH2D, GpuKind::kMemcpyD2H}) {
        const CopyRows::Key key{device, kind};
        if (copies.lane_count(key) == 0) continue;
        LayoutRow row;
        row.kind = RowKind::kCopyRow;
        row.process = p;
        row.copy = key;
        row.levels = static_cast<uint16_t>(copies.lane_count(key));
        row.event_count = copies.copy_count(key);
        row.y = y;
        row.height = row.levels * m.slice_row_height;
        y += row.height + m.track_gap;
        layout.rows.push_back(row);
      }
      for (size_t s = 0; s < memory_devices.size(); ++s) {
        if (memory_devices[s] != device || !memory_done.insert(s).second) continue;
        LayoutRow row;
        row.kind = RowKind::kMemoryRow;
        row.process = p;
        row.memory = static_cast<int32_t>(s);
        row.y = y;
        row.height = 1.5f * m.counter_height;
        y += row.height + m.track_gap;
        layout.rows.push_back(row);
      }
    }
    for (; i < list.size(); ++i) add_track_row(list[i], false);
  }
  layout.total_height = y;
  return layout;
}

}  // namespace stepline::ui
