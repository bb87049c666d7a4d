// LoadJob: loads a trace on a worker thread so the window never freezes; the
// UI polls progress (bytes read of total) and may cancel. The result is a
// finalized Trace plus the timeline's indices, built on the same thread, with
// the flow index and the analysis still to come (AnalysisJob computes them
// while the timeline shows). Files open through the column cache
// (loaders/column_cache).
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "loaders/column_cache/trace_cache.h"
#include "loaders/load.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::app {

class LoadJob {
 public:
  LoadJob() = default;
  LoadJob(const LoadJob&) = delete;
  LoadJob& operator=(const LoadJob&) = delete;
  ~LoadJob();

  // Starts loading `path` (cancelling and joining any running load).
  void Start(const std::string& path);
  // Starts a job that runs `make` instead of reading a file (the built-in demo).
  void StartWith(const std::string& name, std::function<Result<Trace, std::string>()> make);
  void Cancel();
  bool running() const { return running_.load(); }
  double progress() const;  // 0..1, or -1 when the total is unknown
  // A pipe (standard input, a FIFO) whose writer has not sent a byte yet:
  // the window says it waits for data, with Cancel.
  bool waiting() const { return running_ && pipe_ && progress_.bytes_done.load() == 0; }
  // Bytes read so far of a pipe, whose size is unknown until its end (0 for a file).
  uint64_t pipe_bytes_read() const { return pipe_ ? progress_.bytes_done.load() : 0; }
  const std::string& name() const { return name_; }

  struct Outcome {
    std::string path;
    std::shared_ptr<const ui::TimelineData> data;  // null on failure; analysis_ready is false
    std::string error;                             // LoadError::ToString() on failure
    double load_seconds = 0;                       // the load (cache open or parse), wall time
    double index_seconds = 0;                      // then the timeline's indices
  };
  // The finished result, once; nullopt while running or after it was taken.
  std::optional<Outcome> TakeOutcome();

 private:
  void Join();

  // Column cache entries of parsed files, written after the trace is handed
  // over (the window is usable meanwhile); the destructor waits for them.
  column_cache::BackgroundStore cache_store_;
  std::thread thread_;
  bool pipe_ = false;  // the input is a pipe or standard input
  std::atomic<bool> running_{false};
  loaders::LoadProgress progress_;
  std::string name_;
  std::mutex mutex_;
  std::optional<Outcome> outcome_;
};

}  // namespace stepline::app
