// A trace opened with a PyTorch memory snapshot of the same run
// (`--memory-snapshot`, File > Open memory snapshot...): the trace is parsed
// from its file, not taken from the column cache, because the snapshot's
// memory rows are added to it (loaders/torch_snapshot/snapshot_overlay.h).
#pragma once

#include <string>

#include "loaders/load.h"
#include "model/trace.h"

namespace stepline::app {

// The trace with the snapshot's rows, or an error naming the file at fault.
// `notice` (optional) gets what the user should know though it loaded.
Result<Trace, std::string> LoadTraceWithSnapshot(const std::string& trace_path, const std::string& snapshot_path,
                                                 std::string* notice = nullptr,
                                                 loaders::LoadProgress* progress = nullptr);

}  // namespace stepline::app
