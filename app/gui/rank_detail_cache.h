// RankDetailCache: the ranks view's loaded rank details. A rank's
// full model is freed once it is summarized (64 ranks x 100 MB must fit in
// 24 GB), so zooming in on ranks loads their traces again, one at a time on
// a worker thread, through the column cache like every load, keeping only
// their lane slices (analysis::RankDetail) for at most `budget` ranks, least
// recently drawn evicted first. The UI asks (ui::RankDetailSource) and never
// waits.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "loaders/load.h"
#include "ui/ranks/rank_detail_source.h"

namespace stepline::app {

// The ranks kept loaded: STEPLINE_RANK_DETAIL_RANKS (0..64; 0: summaries
// only, nothing loaded on zoom) when set and valid, else 4. Fixed rather than sized from free memory: a rank's detail
// is a few columns per slice (tens of MB for a 100 MB trace), but reloading
// it needs its whole model for a moment, which the budget cannot bound.
size_t RankDetailBudget();

// Least-recently-used order of loaded keys, at most `capacity` of them.
class RankDetailLru {
 public:
  explicit RankDetailLru(size_t capacity) : capacity_(std::max<size_t>(1, capacity)) {}
  void Touch(size_t key);  // most recent now; nothing when absent
  // Adds `key` as the most recent and returns the keys evicted to stay
  // within capacity: the least recent for which `keep` is false first, then
  // the least recent.
  std::vector<size_t> Insert(size_t key, const std::function<bool(size_t)>& keep = {});
  bool Contains(size_t key) const;
  size_t size() const { return order_.size(); }
  const std::list<size_t>& order() const { return order_; }  // most recent first

 private:
  size_t capacity_;
  std::list<size_t> order_;
};

// One rank's detail from its trace file: load (column cache), analyse,
// extract. Null with `error` set when it does not load.
std::shared_ptr<const analysis::RankDetail> LoadRankDetail(const std::string& path, loaders::LoadProgress* progress,
                                                           std::string* error);

class RankDetailCache final : public ui::RankDetailSource {
 public:
  // paths[i]: rank input i's trace file; "" for a rank read from a report.
  RankDetailCache(std::vector<std::string> paths, size_t budget);
  ~RankDetailCache() override;  // cancels the load under way and joins the worker
  RankDetailCache(const RankDetailCache&) = delete;
  RankDetailCache& operator=(const RankDetailCache&) = delete;

  ui::RankDetailState State(size_t input) const override;
  std::shared_ptr<const analysis::RankDetail> Detail(size_t input) override;
  void Want(std::vector<size_t> inputs) override;
  void Load(size_t input) override;
  size_t budget() const override { return budget_; }
  std::string Error(size_t input) const override;
  // Nothing queued or loading (screenshots and tests wait for this).
  bool Idle() const;
  // The ranks loaded now, most recently used first.
  std::vector<size_t> Loaded() const;
  // Every rank ever handed to the loader, in order (tests check what was asked).
  std::vector<size_t> Requested() const;

 private:
  std::optional<size_t> NextJob() const;  // with mu_ held
  bool Queued(size_t input) const;        // with mu_ held
  void Work();

  const size_t budget_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> paths_;
  std::vector<std::shared_ptr<const analysis::RankDetail>> loaded_;
  std::vector<std::string> errors_;
  std::vector<size_t> wanted_;  // Want(): the view's ranks, most wanted first
  std::vector<size_t> manual_;  // Load(): until loaded
  std::optional<size_t> loading_;
  std::vector<size_t> requested_;
  RankDetailLru lru_;
  bool stop_ = false;
  loaders::LoadProgress progress_;  // cancel: set when the cache goes
  std::thread worker_;
};

}  // namespace stepline::app
