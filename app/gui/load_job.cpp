// LoadJob: the worker thread and its hand-off.
#include "app/gui/load_job.h"

#include <chrono>
#include <filesystem>

#include "app/runs/cached_trace_load.h"

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
  name_ = std::filesystem::path(name).filename().string();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    outcome_.reset();
  }
  running_ = true;
  thread_ = std::thread([this, name, make = std::move(make)] {
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
    {
      std::lock_guard<std::mutex> lock(mutex_);
      outcome_ = std::move(out);
    }
    running_ = false;
    if (trace != nullptr && !progress_.cancel) cache_store_.Start(std::move(trace), ticket, cache_settings);
  });
}

std::optional<LoadJob::Outcome> LoadJob::TakeOutcome() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Outcome> out;
  out.swap(outcome_);
  return out;
}

}  // namespace stepline::app
