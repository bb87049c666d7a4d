// Critical path of a step: the chain of waits that ends at the step's last
// event, traced backward from that event. At each node the walk takes the
// predecessor that finished last, the one the node waited for:
//   - a host slice follows the slice before it on its thread (nesting: the
//     deepest slice at each instant holds the time);
//   - a kernel, copy or collective follows whichever came last of the op
//     before it on its stream, its launch call (the launch -> kernel link)
//     and the ops of other streams it waits for through events
//     (stream_waits.h: cudaStreamWaitEvent, where the trace records it);
//   - a synchronizing host call (stream/device/event synchronize, a blocking
//     copy: the idle-cause table's `sync` rows) that returns after GPU work
//     ends follows that GPU work: the op its event covers (event
//     synchronize), the last op of the stream it names (stream synchronize),
//     else the op that ended last before it returned.
// Stretches where the chain waited on nothing recorded are `idle`. The path
// runs from the step's start to its last event's end, so it is never longer
// than the step and never shorter than any stream's busy time in the step.
// Cost: each walk step is a bisection on one track; the nodes walked are the
// path's, so the whole pass is O(events on the paths x log).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/analysis/device_activity.h"
#include "model/analysis/idle_cause_table.h"
#include "model/analysis/step_set.h"
#include "model/trace.h"

namespace stepline::analysis {

enum class PathKind : uint8_t { kHost = 0, kLaunch, kGpu, kSync, kCopy, kCollective, kIdle };
inline constexpr int kPathKindCount = 7;
std::string_view PathKindName(PathKind k);  // "host", "launch", "gpu", "sync", "copy", "collective", "idle"
using PathKindNs = std::array<DurNs, kPathKindCount>;

// One stretch of the path: `slice` held it (None: idle).
struct PathSegment {
  SliceId slice;
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  PathKind kind = PathKind::kIdle;
};

struct CriticalPath {
  TimeNs start_ns = 0;               // the step's start
  DurNs dur_ns = 0;                  // to the end of its last event; sum of by_kind_ns
  PathKindNs by_kind_ns{};
  std::vector<PathSegment> segments;  // in time order
  std::vector<SliceId> slices;        // the distinct slices of `segments`, in time order
  // The names holding the most path time (idle left out), largest first, up to kCriticalPathTop.
  std::vector<std::pair<StringId, DurNs>> top;
};
inline constexpr size_t kCriticalPathTop = 5;

struct CriticalPathInput {
  const StepSet* steps = nullptr;
  std::vector<TrackId> streams;  // every device's GPU streams
  const LaunchIndex* launches = nullptr;
  const IdleCauseTable* table = nullptr;
};

// One path per step of *input.steps, same order.
std::vector<CriticalPath> ComputeCriticalPaths(const Trace& trace, const CriticalPathInput& input);

// The paths summed: time by kind and the top names.
struct CriticalPathTotal {
  DurNs dur_ns = 0;
  PathKindNs by_kind_ns{};
  std::vector<std::pair<StringId, DurNs>> top;  // over all steps, largest first
  std::vector<std::pair<StringId, DurNs>> top_of_kind;  // of the kind with the most time (idle excepted)
  PathKind main_kind = PathKind::kIdle;         // the kind with the most time
};
CriticalPathTotal SumCriticalPaths(const Trace& trace, std::span<const CriticalPath> paths);

// What shortening the path would take, one sentence: "62% of the critical
// path is host time in `enumerate(DataLoader)`...". "" without a path.
std::string CriticalPathSentence(const Trace& trace, const CriticalPathTotal& total);

}  // namespace stepline::analysis
