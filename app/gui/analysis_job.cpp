// AnalysisJob: the worker threads and the hand-over; see analysis_job.h.
#include "app/gui/analysis_job.h"

#include <chrono>
#include <new>
#include <string>
#include <string_view>
#include <system_error>

#include "loaders/memory_estimate.h"
#include "model/worker_thread.h"

namespace stepline::app {
namespace {

// What the trace's load needed: the file is known (its size and format).
loaders::MemoryEstimate Estimate(const Trace& trace) {
  return loaders::EstimateLoadMemory(trace.info().source_path);
}

// Why `what` failed: out of memory (std::bad_alloc, or a thread that could
// not start), else the exception's own text.
std::string Failure(std::string_view what, const std::exception& e, const Trace& trace) {
  const bool memory =
      dynamic_cast<const std::bad_alloc*>(&e) != nullptr || dynamic_cast<const std::system_error*>(&e) != nullptr;
  return memory ? loaders::OutOfMemoryMessage(what, Estimate(trace)) : std::string(what) + " failed: " + e.what();
}

}  // namespace

AnalysisJob::AnalysisJob(std::shared_ptr<const ui::TimelineData> pending, analysis::EfficiencyOptions efficiency)
    : pending_(std::move(pending)), efficiency_(std::move(efficiency)) {}

void AnalysisJob::Start() {
  if (started_ || cancel_) return;
  started_ = true;
  // The workers hold the trace and the indices, never the TimelineData the UI thread reads.
  // Running out of memory ends a thread's work, never the process: the
  // timeline stays without flow arrows or without its analysis, and error()
  // says what ran out.
  try {
    StartThreads();
  } catch (const std::bad_alloc&) {
    // A thread that could not start (no memory for its stack): the analysis
    // fails like one that ran out; one that did start still ends on its own.
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = loaders::OutOfMemoryMessage("starting the analysis", Estimate(*pending_->trace));
    if (!thread_.joinable()) done_ = true;
    if (!flows_thread_.joinable()) flows_done_ = true;
  }
}

void AnalysisJob::StartThreads() {
  flows_thread_ = StartThread([this, trace = pending_->trace, indices = pending_->indices] {
    try {
      indices->BuildFlows(*trace);
    } catch (const std::exception& e) {  // std::bad_alloc, or std::system_error: a helper thread did not start
      std::lock_guard<std::mutex> lock(mutex_);
      if (error_.empty()) error_ = Failure("indexing the flows", e, *trace);
    }
    flows_done_ = true;
  });
  thread_ = StartThread([this, trace = pending_->trace] {
    const auto start = std::chrono::steady_clock::now();
    try {
      auto result = std::make_unique<ui::TimelineAnalysis>(*trace, &cancel_, efficiency_);
      seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!cancel_) {
        std::lock_guard<std::mutex> lock(mutex_);
        result_ = std::move(result);
      }
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(mutex_);
      error_ = Failure("the analysis", e, *trace);
    }
    done_ = true;
  });
}

std::string AnalysisJob::error() {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
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
