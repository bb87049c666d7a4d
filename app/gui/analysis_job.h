// AnalysisJob: computes a shown trace's analysis on a worker thread, so the
// timeline is on screen while it runs (issue #22). It reads only the Trace
// (immutable after load); the UI thread takes the finished TimelineAnalysis
// and joins it to the timeline-only TimelineData as a new TimelineData.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

#include "ui/timeline/timeline_data.h"

namespace stepline::app {

class AnalysisJob {
 public:
  // Starts analysing `pending`'s trace (pending->analysis_ready is false).
  explicit AnalysisJob(std::shared_ptr<const ui::TimelineData> pending);
  AnalysisJob(const AnalysisJob&) = delete;
  AnalysisJob& operator=(const AnalysisJob&) = delete;
  ~AnalysisJob();  // cancels and joins (the wait is one analysis stage at most)

  const std::shared_ptr<const ui::TimelineData>& pending() const { return pending_; }
  bool done() const { return done_.load(); }
  // The analysis stops at its next stage; its result will never be taken.
  void Cancel() { cancel_ = true; }
  // Once done and not cancelled: `pending` with its analysis, as a new
  // TimelineData (once; null otherwise). UI thread only.
  std::shared_ptr<const ui::TimelineData> Take();
  double seconds() const { return seconds_; }  // the analysis' wall time, once done

 private:
  std::shared_ptr<const ui::TimelineData> pending_;  // touched by the UI thread only
  std::atomic<bool> cancel_{false};
  std::atomic<bool> done_{false};
  std::mutex mutex_;
  std::unique_ptr<ui::TimelineAnalysis> result_;  // written by the worker under mutex_
  double seconds_ = 0;                            // written by the worker before done_
  std::thread thread_;
};

}  // namespace stepline::app
