// AnalysisJob: the work on a shown trace that the first frame does not wait
// for: its analysis, and the flow index (TimelineIndices::
// BuildFlows), each on a worker thread of its own, so the timeline is on
// screen while they run. It reads only the Trace (immutable after load); the
// flows appear in place once published, and the UI thread takes the finished
// TimelineAnalysis and joins it to the timeline-only TimelineData as a new
// TimelineData. The threads start on Start(), which the session calls once
// the first frame with the trace is drawn, so that frame does not share the
// cores with them.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "ui/timeline/timeline_data.h"

namespace stepline::app {

class AnalysisJob {
 public:
  // For `pending` (pending->analysis_ready is false), analysed with
  // `efficiency` (the peak and batch size); nothing runs yet.
  explicit AnalysisJob(std::shared_ptr<const ui::TimelineData> pending,
                       analysis::EfficiencyOptions efficiency = {});
  AnalysisJob(const AnalysisJob&) = delete;
  AnalysisJob& operator=(const AnalysisJob&) = delete;
  ~AnalysisJob();  // cancels and joins (the wait is one analysis stage, or the flow index, at most)

  // Starts both threads (once; not after Cancel).
  void Start();
  bool started() const { return started_; }
  const std::shared_ptr<const ui::TimelineData>& pending() const { return pending_; }
  bool done() const { return done_.load(); }  // the analysis is finished
  // Both threads ended, or never started: the job may be freed without a wait.
  bool finished() const { return !started_ || (done_.load() && flows_done_.load()); }
  // The analysis stops at its next stage; its result will never be taken.
  // The flow index, if started, still completes (it is shared with the data).
  void Cancel() { cancel_ = true; }
  // Once done and not cancelled: `pending` with its analysis, as a new
  // TimelineData (once; null otherwise). UI thread only.
  std::shared_ptr<const ui::TimelineData> Take();
  double seconds() const { return seconds_; }  // the analysis' wall time, once done
  // What ran out of memory (the analysis or the flow index), empty if nothing did.
  std::string error();

 private:
  void StartThreads();  // may throw std::bad_alloc (a thread could not start)

  std::shared_ptr<const ui::TimelineData> pending_;  // touched by the UI thread only
  const analysis::EfficiencyOptions efficiency_;     // read by the worker
  bool started_ = false;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> done_{false};
  std::atomic<bool> flows_done_{false};
  std::mutex mutex_;
  std::unique_ptr<ui::TimelineAnalysis> result_;  // written by the worker under mutex_
  std::string error_;                             // written by the workers under mutex_
  double seconds_ = 0;                            // written by the worker before done_
  std::thread thread_, flows_thread_;
};

}  // namespace stepline::app
