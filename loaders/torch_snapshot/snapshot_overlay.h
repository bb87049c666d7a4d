// A PyTorch memory snapshot opened together with a trace of the same run:
// the snapshot's memory rows join the trace, placed on the trace's timeline
// by the epoch clock both carry (a snapshot's `time_us` and a Kineto
// trace's timestamps are both microseconds since the Unix epoch). Nothing is
// guessed: a trace whose times are not tied to the epoch is refused.
#pragma once

#include <optional>
#include <string>

#include "loaders/load.h"
#include "model/trace.h"

namespace stepline::loaders {

// ns since the Unix epoch of `trace`'s model time 0, or nullopt when its
// clock is not tied to the epoch. Kineto JSON since 2024 gives
// baseTimeNanoseconds (TraceInfo::wall_clock_origin_ns); older Kineto, XSpace
// and Perfetto traces keep epoch times in the model itself (origin 0), which
// shows as times of 1e18 ns or more (September 2001 onwards).
std::optional<TimeNs> EpochOfModelZero(const Trace& trace);

struct SnapshotOverlay {
  std::string error;   // non-empty: nothing was added; names the file and why
  std::string notice;  // added, with something to say (the two barely overlap in time)
  TimeNs shift_ns = 0; // what was added to the snapshot's epoch times
};

// Loads the snapshot at `snapshot_path` and adds its rows to `trace`, which
// must be loaded by LoadFile (not borrowed from the column cache). When the
// trace holds memory events of its own, the memory table reads the
// snapshot's only (BuildMemoryTable).
SnapshotOverlay AddMemorySnapshot(Trace* trace, const std::string& trace_name, const std::string& snapshot_path,
                                  LoadProgress* progress = nullptr);

}  // namespace stepline::loaders
