// AppendInstantTracks: a second file's instant rows (a PyTorch memory
// snapshot's) joined to a finalized trace of the same run.
#pragma once

#include "model/time.h"
#include "model/trace.h"

namespace stepline {

// Adds `from`'s tracks that hold instants (with their processes, under pids
// `to` does not use, their names and args) to the finalized `to`, times moved
// by `shift_ns`. New tracks go after every existing one, so their instants,
// appended in (track, time) order at the end of the instant table, keep it
// grouped by track as Finalize() left it; slices, counters, flows and the
// span of `to` are untouched. False, changing nothing, when `to`'s columns
// are borrowed from a cache file or `from` holds slices or counters.
bool AppendInstantTracks(Trace* to, const Trace& from, TimeNs shift_ns);

}  // namespace stepline
