// PlaneReader: decodes one XPlane's bytes into the TraceBuilder: the plane's
// process, one track per line, a slice / instant / counter sample per event,
// args from stats, launch links by correlation_id. SpaceState carries what
// outlives a plane (host step markers, wall-clock facts, trace metadata).
//
// Lines and events are decoded by hand (WireReader, xline_decoder.h) straight
// from the input bytes, possibly on another thread: no per-event allocation,
// no copy of names, no message size limit.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "loaders/load.h"
#include "loaders/trace_builder.h"
#include "loaders/xspace/xline_decoder.h"
#include "loaders/xspace/xplane_conventions.h"
#include "loaders/xspace/xplane_metadata.h"
#include "loaders/xspace/xspace_framing.h"
#include "loaders/xspace/xspace_stats.h"

namespace stepline::loaders::xspace {

// A host event that marks a step (xspace_steps.h turns these into a "Steps"
// track when no device plane has one).
struct HostStepMarker {
  TrackId track;
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  StringId name;  // the step's name ("train 5", or the step_name stat)
};

struct SpaceState {
  TraceBuilder* builder = nullptr;
  LoadOptions options;
  std::string path;
  LoadProgress* progress = nullptr;
  LinePipeline* lines = nullptr; // decoded line chunks, in file order
  const char* input = nullptr;   // start of the decompressed bytes

  std::vector<Arg> metadata_args;          // TraceInfo.metadata
  std::unordered_set<int64_t> used_pids;
  bool saw_steps_line = false;             // some plane has a "Steps" line
  std::vector<HostStepMarker> host_markers;
  int64_t host_pid = INT64_MIN;            // pid of /host:CPU once it has a track
  int64_t min_line_timestamp_ns = INT64_MAX;  // over lines that have events
  bool has_profile_start = false;          // Task Environment profile_start_time
  int64_t profile_start_ns = 0;
  uint64_t aggregated_events = 0;          // skipped num_occurrences events
  uint64_t aggregated_first_offset = 0;
};

class PlaneReader {
 public:
  PlaneReader(SpaceState* state, PlaneSpan span, size_t plane_index);

  // Decodes the whole plane. On failure returns false with `error` set.
  bool Read(LoadError* error);

 private:
  struct Span {
    const char* data;
    uint64_t size;
  };
  struct LineInfo {
    LineHeader header;
    LineKind kind = LineKind::kHost;
    TrackId track;
    bool is_xla_ops = false;  // IsXlaOpsLineName
  };

  bool WalkPlaneFields(LoadError* error);
  bool ReadMetadata(LoadError* error);
  bool ReadPlaneStats(LoadError* error);
  void StartProcess();
  bool ReadLine(size_t line_index, LoadError* error);
  void OpenTrack(LineInfo* line);
  void AppendEvent(const LineInfo& line, const DecodedEvent& event, std::span<const RawStat> stats);
  GpuKind ClassifyStreamEvent(const LineInfo& line, uint32_t md_index, StringId name, const StatFacts& facts);
  void NoteHostStepMarker(TrackId track, TimeNs start_ns, DurNs dur_ns, const StatFacts& facts, StringId name);
  bool IsStepMarkerName(uint32_t md_index, StringId name);
  void AssignLineSortOrder();
  bool Fail(LoadError* error, const WireError& wire, const std::string& where);
  uint64_t OffsetOf(const char* p) const { return static_cast<uint64_t>(p - state_->input); }

  SpaceState* state_;
  TraceBuilder& builder_;
  PlaneSpan span_;
  size_t plane_index_;
  int64_t plane_id_ = 0;
  std::string_view plane_name_;
  PlaneClass class_;
  int64_t pid_ = 0;
  bool process_started_ = false;
  PlaneMetadata meta_;
  std::vector<Span> lines_, event_md_, stat_md_, plane_stats_;
  std::vector<Arg> args_;               // the current event's args (reused)
  // GpuKind of stream events by event-metadata index, classified once from
  // the name (kernel names can be kilobytes of C++ templates); kGpuKindCount = not yet.
  std::vector<uint8_t> name_kind_cache_;
  // IsHostStepMarkerName of each event metadata's name: 0 no, 1 yes, 2 not yet.
  std::vector<uint8_t> step_name_cache_;
  struct SortKey {
    uint64_t primary;
    int64_t id;
    TrackId track;
  };
  std::vector<SortKey> sort_keys_;
  // XLA device activity: events of the "XLA Ops" lines with their GpuKind
  // (model/xla_op.h). A TPU plane's are device ops as read; a GPU plane's
  // become device ops only when none of its streams has activity (a GPU
  // trace with only XLA lines), else the kernels already are the activity.
  std::vector<std::pair<SliceId, GpuKind>> xla_ops_;
  bool stream_activity_ = false;  // a stream event of this plane has a GpuKind
};

}  // namespace stepline::loaders::xspace
