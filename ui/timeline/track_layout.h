// TrackLayout: the vertical order and size of everything on the timeline.
// Processes and devices are collapsible groups; inside a group, device-derived
// rows (Steps, ops), then threads or streams, then the device's gathered
// Memcpy H2D / D2H rows, async rows and counters. Pinned tracks sit in a group
// of their own at the top; hidden tracks are left out. Pure: no ImGui.
#pragma once

#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "model/trace.h"
#include "ui/timeline/copy_rows.h"
#include "ui/timeline/track_depth_index.h"

namespace stepline::ui {

enum class RowKind : uint8_t { kGroupHeader, kSliceTrack, kCounterTrack, kCopyRow, kMemoryRow };

// Rows the idle-gap shading covers: kernel streams only. On a copy row
// (Memcpy H2D, ...) or a stream of nothing but copies and memsets the
// shading, in the copy causes' colours, read as copies.
inline bool RowShowsIdleGaps(RowKind kind, TrackKind track_kind, bool copies_only) {
  return kind == RowKind::kSliceTrack && track_kind == TrackKind::kGpuStream && !copies_only;
}

struct LayoutRow {
  RowKind kind = RowKind::kGroupHeader;
  ProcessId process;                   // group of this row
  TrackId track;                       // kSliceTrack / kCounterTrack
  CopyRows::Key copy{-1, GpuKind::kNone};  // kCopyRow
  int32_t memory = -1;                 // kMemoryRow: index into TimelineData::memory
  float y = 0, height = 0;             // content pixels from the top of the track area
  uint16_t levels = 0;                 // slice rows drawn (depths, or copy lanes)
  bool collapsed = false;              // kGroupHeader
  bool pinned = false;                 // in the pinned group
  uint64_t event_count = 0;            // shown in the header
};

// What the user chose; lives in ViewState.
struct LayoutChoices {
  std::set<uint32_t> collapsed_processes;  // ProcessId values
  std::set<uint32_t> hidden_tracks;        // TrackId values
  std::set<uint32_t> pinned_tracks;        // TrackId values
};

struct LayoutMetrics {
  float slice_row_height = 18.f;
  float group_header_height = 22.f;
  float counter_height = 36.f;
  float track_gap = 4.f;
};

struct TrackLayout {
  std::vector<LayoutRow> rows;
  float total_height = 0;
};

// `memory_devices[i]` is the device id of memory series i (-1: none); a
// device's group ends with a Memory row per series of that device, after its
// copy rows.
TrackLayout ComputeTrackLayout(const Trace& trace, const TrackDepthIndex& depths, const CopyRows& copies,
                               const LayoutChoices& choices, const LayoutMetrics& metrics,
                               std::span<const int32_t> memory_devices = {});

// Group and track labels ("GPU 0 — /device:GPU:0", "Stream #7(Compute)", "Memcpy H2D").
std::string ProcessLabel(const Trace& trace, ProcessId process);
std::string TrackLabel(const Trace& trace, TrackId track);

}  // namespace stepline::ui
