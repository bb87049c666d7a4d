// LoadJob: the worker thread and its hand-off.
#include "app/gui/load_job.h"

#include <chrono>
#include <filesystem>
#include <new>
#include <system_error>

#include "app/runs/cached_trace_load.h"
#include "loaders/memory_estimate.h"
#include "model/worker_thread.h"

namespace stepline::app {

LoadJob::~LoadJob() {
  Cancel();
  Join();
}

void LoadJob::Join() {
  if (thread_.joinable()) thread_.join();
}

void LoadJob::Cancel() { progress_.cancel = true; }

double LoadJob::progress() const {
  const uint64_t total = progress_.bytes_total.load();
  if (total == 0) return -1;
  return std::min(1.0, static_cast<double>(progress_.bytes_done.load()) / static_cast<double>(total));
}

void LoadJob::Start(const std::string& path) {
  StartWith(path, nullptr);
}

void LoadJob::StartWith(const std::string& name, std::function<Result<Trace, std::string>()> make) {
  Cancel();
  Join();
  progress_.bytes_done = 0;
  progress_.bytes_total = 0;
  progress_.cancel = false;
  name_ = name == "-" ? std::string("standard input") : std::filesystem::path(name).filename().string();
  {
    std::error_code ec;
    pipe_ = !make && (name == "-" || std::filesystem::is_fifo(name, ec));
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    outcome_.reset();
  }
  running_ = true;
  auto body = [this, name, make = std::move(make)] {
    const auto start = std::chrono::steady_clock::now();
    const auto since = [](std::chrono::steady_clock::time_point t) {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    Outcome out;
    out.path = name;
    std::shared_ptr<const Trace> loaded;
    std::shared_ptr<const Trace> trace;  // a parsed file's, for the cache entry
    column_cache::StoreTicket ticket;
    column_cache::CacheSettings cache_settings;
    try {
      if (make) {
        auto r = make();
        if (r.ok()) {
          loaded = std::make_shared<const Trace>(std::move(r).value());
        } else {
          out.error = r.error();
        }
      } else {
        const column_cache::CacheSettings settings = CacheSettingsForApp();
        column_cache::CachedLoad cache_info;
        auto r = column_cache::LoadThroughCache(name, settings, {}, &progress_, &cache_info);
        if (r.ok()) {
          loaded = std::make_shared<const Trace>(std::move(r).value());
          trace = loaded;
          ticket = cache_info.ticket;
          cache_settings = settings;
        } else {
          out.error = r.error().ToString();
        }
      }
      out.load_seconds = since(start);
      if (loaded != nullptr && !progress_.cancel) {
        const auto indexing = std::chrono::steady_clock::now();
        // The flows are indexed after the first frame (AnalysisJob).
        auto indices = std::make_shared<const ui::TimelineIndices>(*loaded, ui::TimelineIndices::Flows::kLater);
        out.data = std::make_shared<const ui::TimelineData>(loaded, std::move(indices));
        out.index_seconds = since(indexing);
      } else if (loaded != nullptr) {
        out.error = "cancelled";
      }
    } catch (const std::exception& e) {
      // This load alone fails: what the window shows stays, and the error
      // line says why. The loaders turn their own bad_alloc into a LoadError;
      // this is the indexing after them (whose helper threads may also fail
      // to start: std::system_error), or a generated trace.
      loaded.reset();
      trace.reset();
      out.data.reset();
      const bool memory = dynamic_cast<const std::bad_alloc*>(&e) != nullptr ||
                          dynamic_cast<const std::system_error*>(&e) != nullptr;
      out.error = name + ": " +
                  (memory ? loaders::OutOfMemoryMessage("loading", loaders::EstimateLoadMemory(name)) : e.what());
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      outcome_ = std::move(out);
    }
    running_ = false;
    if (trace != nullptr && !progress_.cancel) cache_store_.Start(std::move(trace), ticket, cache_settings);
  };
  try {
    thread_ = StartThread(std::move(body));
  } catch (const std::bad_alloc&) {
    // No thread for the load (no memory for its stack): it fails at once,
    // and what the window shows stays.
    Outcome out;
    out.path = name;
    out.error = name + ": " + loaders::OutOfMemoryMessage("starting the load", loaders::EstimateLoadMemory(name));
    std::lock_guard<std::mutex> lock(mutex_);
    outcome_ = std::move(out);
    running_ = false;
  }
}

std::optional<LoadJob::Outcome> LoadJob::TakeOutcome() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Outcome> out;
  out.swap(outcome_);
  return out;
}

}  // namespace stepline::app
