// AnalysisJob: the worker threads and the hand-over; see analysis_job.h.
#include "app/gui/analysis_job.h"

#include <chrono>

namespace stepline::app {

AnalysisJob::AnalysisJob(std::shared_ptr<const ui::TimelineData> pending) : pending_(std::move(pending)) {}

void AnalysisJob::Start() {
  if (started_ || cancel_) return;
  started_ = true;
  // The workers hold the trace and the indices, never the TimelineData the UI thread reads.
  flows_thread_ = std::thread([this, trace = pending_->trace, indices = pending_->indices] {
    indices->BuildFlows(*trace);
    flows_done_ = true;
  });
  thread_ = std::thread([this, trace = pending_->trace] {
    const auto start = std::chrono::steady_clock::now();
    auto result = std::make_unique<ui::TimelineAnalysis>(*trace, &cancel_);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!cancel_) {
      std::lock_guard<std::mutex> lock(mutex_);
      result_ = std::move(result);
    }
    done_ = true;
  });
}

AnalysisJob::~AnalysisJob() {
  Cancel();
  if (thread_.joinable()) thread_.join();
  if (flows_thread_.joinable()) flows_thread_.join();
}

std::shared_ptr<const ui::TimelineData> AnalysisJob::Take() {
  if (!done_ || cancel_) return nullptr;
  std::unique_ptr<ui::TimelineAnalysis> result;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    result.swap(result_);
  }
  if (!result) return nullptr;
  return std::make_shared<const ui::TimelineData>(*pending_, std::move(*result));
}

}  // namespace stepline::app
