// ViewerSession::OpenWithSnapshot: a trace and a PyTorch memory snapshot of
// the same run loaded together (`stepline view TRACE --memory-snapshot
// SNAP`, File > Open memory snapshot...). In a file of its own so
// viewer_session.cpp stays short.
#include "app/gui/viewer_session.h"
#include "app/runs/snapshot_pair.h"

#include <memory>
#include <string>
#include <utility>

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
  // The notice (no overlap in time, ...) is written by the job before its
  // outcome is posted, and read when it is taken.
  job_snapshot_ = snapshot_path;
  job_notice_ = std::make_shared<std::string>();
  jobs_[0].StartWith(trace_path, [trace_path, snapshot_path, notice = job_notice_] {
    return LoadTraceWithSnapshot(trace_path, snapshot_path, notice.get());
  });
}

void ViewerSession::ShowSnapshotOutcome() {
  shown_snapshot_ = std::exchange(job_snapshot_, std::string());
  const std::shared_ptr<std::string> notice = std::exchange(job_notice_, nullptr);
  if (shown_snapshot_.empty()) return;
  watch_.Watch(kSnapshotWatchLabel, shown_snapshot_);
  if (notice && !notice->empty()) status_.notice = *notice;
}

bool ViewerSession::ReloadWithSnapshot(const FileWatch::Change& change) {
  if (shown_snapshot_.empty() || (!change.label.empty() && change.label != kSnapshotWatchLabel)) return false;
  const std::string trace = shown_path_, snapshot = shown_snapshot_;
  if (change.label.empty() ? change.path != trace : change.path != snapshot) return false;
  OpenWithSnapshot(trace, snapshot);
  return true;
}

}  // namespace stepline::app
