// ViewerSession::OpenWithSnapshot: a trace and a PyTorch memory snapshot of
// the same run loaded together (`stepline view TRACE --memory-snapshot
// SNAP`, File > Open memory snapshot...). In a file of its own so
// viewer_session.cpp stays short.
#include "app/gui/viewer_session.h"
#include "app/runs/snapshot_pair.h"

namespace stepline::app {

void ViewerSession::OpenWithSnapshot(const std::string& trace_path, const std::string& snapshot_path) {
  // Like OpenFile: a single open supersedes a comparison being assembled.
  Abandon(1);
  assembling_ = false;
  pending_[0] = pending_[1] = PendingSide{};
  job_single_ = true;
  job_wanted_[0] = true;
  job_path_[0] = trace_path;
  status_.error.clear();
  // Not through the column cache: the snapshot's rows are added to the trace.
  jobs_[0].StartWith(trace_path, [trace_path, snapshot_path] {
    return LoadTraceWithSnapshot(trace_path, snapshot_path);
  });
}

}  // namespace stepline::app
