// RankDetailCache: loading rank details in the background (see rank_detail_cache.h).
#include "app/gui/rank_detail_cache.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "app/runs/cached_trace_load.h"
#include "loaders/memory_estimate.h"
#include "model/analysis/trace_analysis.h"
#include "model/worker_thread.h"

namespace stepline::app {

size_t RankDetailBudget() {
  if (const char* env = std::getenv("STEPLINE_RANK_DETAIL_RANKS")) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 0 && n <= 64) return static_cast<size_t>(n);
  }
  return 4;
}

void RankDetailLru::Touch(size_t key) {
  auto it = std::find(order_.begin(), order_.end(), key);
  if (it != order_.end()) order_.splice(order_.begin(), order_, it);
}

std::vector<size_t> RankDetailLru::Insert(size_t key, const std::function<bool(size_t)>& keep) {
  order_.remove(key);
  order_.push_front(key);
  std::vector<size_t> evicted;
  while (order_.size() > capacity_) {
    // The least recent not kept, else the least recent (never `key`).
    auto victim = std::prev(order_.end());
    for (auto it = std::prev(order_.end()); it != order_.begin(); --it) {
      if (!keep || !keep(*it)) {
        victim = it;
        break;
      }
    }
    evicted.push_back(*victim);
    order_.erase(victim);
  }
  return evicted;
}

bool RankDetailLru::Contains(size_t key) const { return std::find(order_.begin(), order_.end(), key) != order_.end(); }

std::shared_ptr<const analysis::RankDetail> LoadRankDetail(const std::string& path, loaders::LoadProgress* progress,
                                                           std::string* error) {
  std::shared_ptr<const analysis::RankDetail> detail;
  {
    loaders::LoadOptions options;
    // Half the cores: the window keeps drawing meanwhile.
    options.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
    CachedTraceLoad load;
    auto& trace = load.Load(path, options, progress);
    if (!trace) {
      *error = trace.error().ToString();
      return nullptr;
    }
    try {
      const analysis::TraceAnalysis a = analysis::ComputeAnalysis(trace.value());
      detail = std::make_shared<const analysis::RankDetail>(analysis::ExtractRankDetail(trace.value(), a));
    } catch (const std::exception&) {  // std::bad_alloc; std::system_error: a helper thread did not start
      // On the cache's worker thread an escaping bad_alloc would end the
      // process: this rank's detail fails alone, with the reason.
      *error = path + ": " + loaders::OutOfMemoryMessage("the rank's analysis", loaders::EstimateLoadMemory(path));
      return nullptr;
    }
  }  // the model goes here (and its cache entry is written when it was parsed)
  loaders::ReleaseFreedMemory();
  return detail;
}

RankDetailCache::RankDetailCache(std::vector<std::string> paths, size_t budget)
    : budget_(budget),
      paths_(std::move(paths)),
      loaded_(paths_.size()),
      errors_(paths_.size()),
      lru_(std::max<size_t>(1, budget)) {  // a "Load detail" still keeps one at budget 0
  if (std::any_of(paths_.begin(), paths_.end(), [](const std::string& p) { return !p.empty(); })) {
    try {
      worker_ = StartThread([this] { Work(); });
    } catch (const std::bad_alloc&) {
      // No thread (no memory for its stack): no rank's detail loads, each
      // says why; the ranks view itself stays.
      for (size_t i = 0; i < paths_.size(); ++i) {
        if (!paths_[i].empty()) errors_[i] = loaders::OutOfMemoryMessage("starting the detail loader", {});
      }
    }
  }
}

RankDetailCache::~RankDetailCache() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  progress_.cancel = true;
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

bool RankDetailCache::Queued(size_t input) const {
  return std::find(manual_.begin(), manual_.end(), input) != manual_.end() ||
         std::find(wanted_.begin(), wanted_.end(), input) != wanted_.end();
}

ui::RankDetailState RankDetailCache::State(size_t input) const {
  std::lock_guard lock(mu_);
  if (input >= paths_.size() || paths_[input].empty()) return ui::RankDetailState::kNoTrace;
  if (loaded_[input]) return ui::RankDetailState::kLoaded;
  if (!errors_[input].empty()) return ui::RankDetailState::kFailed;
  if (loading_ == input || Queued(input)) return ui::RankDetailState::kLoading;
  return ui::RankDetailState::kNotLoaded;
}

std::shared_ptr<const analysis::RankDetail> RankDetailCache::Detail(size_t input) {
  std::lock_guard lock(mu_);
  if (input >= loaded_.size() || !loaded_[input]) return nullptr;
  lru_.Touch(input);
  return loaded_[input];
}

void RankDetailCache::Want(std::vector<size_t> inputs) {
  std::lock_guard lock(mu_);
  if (inputs == wanted_) return;
  wanted_ = std::move(inputs);
  cv_.notify_all();
}

void RankDetailCache::Load(size_t input) {
  std::lock_guard lock(mu_);
  if (input >= paths_.size() || paths_[input].empty() || loaded_[input]) return;
  errors_[input].clear();  // asked again: try again
  if (std::find(manual_.begin(), manual_.end(), input) == manual_.end()) manual_.push_back(input);
  cv_.notify_all();
}

std::string RankDetailCache::Error(size_t input) const {
  std::lock_guard lock(mu_);
  return input < errors_.size() ? errors_[input] : std::string();
}

bool RankDetailCache::Idle() const {
  std::lock_guard lock(mu_);
  return !loading_ && !NextJob();
}

std::vector<size_t> RankDetailCache::Loaded() const {
  std::lock_guard lock(mu_);
  return {lru_.order().begin(), lru_.order().end()};
}

std::vector<size_t> RankDetailCache::Requested() const {
  std::lock_guard lock(mu_);
  return requested_;
}

std::optional<size_t> RankDetailCache::NextJob() const {
  const auto ready = [&](size_t i) {
    return i < paths_.size() && !paths_[i].empty() && !loaded_[i] && errors_[i].empty();
  };
  for (size_t i : manual_) {
    if (ready(i)) return i;
  }
  for (size_t i : wanted_) {
    if (ready(i)) return i;
  }
  return std::nullopt;
}

void RankDetailCache::Work() {
  std::unique_lock lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || NextJob().has_value(); });
    if (stop_) return;
    const size_t job = *NextJob();
    loading_ = job;
    requested_.push_back(job);
    const std::string path = paths_[job];
    lock.unlock();
    std::string error;
    std::shared_ptr<const analysis::RankDetail> detail = LoadRankDetail(path, &progress_, &error);
    lock.lock();
    loading_.reset();
    std::erase(manual_, job);
    if (stop_) return;
    if (!detail) {
      errors_[job] = error.empty() ? "did not load" : error;
      continue;
    }
    // Evict what the view does not want now before what it does.
    const std::vector<size_t> wanted = wanted_;
    for (size_t gone : lru_.Insert(job, [&](size_t k) {
           return std::find(wanted.begin(), wanted.end(), k) != wanted.end();
         })) {
      loaded_[gone].reset();
    }
    loaded_[job] = std::move(detail);
  }
}

}  // namespace stepline::app
