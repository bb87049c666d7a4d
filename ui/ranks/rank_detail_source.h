// RankDetailSource: where the ranks timeline gets the full slices of a rank
// (analysis::RankDetail) when zoomed in past its summary. The
// app implements it with a worker thread and a bounded LRU of loaded ranks
// (app/gui/rank_detail_cache.h); ui only asks, never loads or blocks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/analysis/rank_detail.h"

namespace stepline::ui {

enum class RankDetailState : uint8_t {
  kNoTrace = 0,  // read from a report (`ranks --from-reports`): nothing to load
  kNotLoaded,
  kLoading,      // asked for, queued or being loaded
  kLoaded,
  kFailed,       // the trace did not load again (moved, changed): see Error()
};

class RankDetailSource {
 public:
  virtual ~RankDetailSource() = default;
  // Ranks are RankRow::input indices (RanksViewInput::ranks).
  virtual RankDetailState State(size_t input) const = 0;
  // The loaded detail, marked as just used (the LRU's order); null unless kLoaded.
  virtual std::shared_ptr<const analysis::RankDetail> Detail(size_t input) = 0;
  // The ranks the view shows in detail now, most wanted first; replaces the
  // previous wish (ranks scrolled or zoomed away are no longer queued).
  virtual void Want(std::vector<size_t> inputs) = 0;
  // "Load detail" on one rank: queued whatever the zoom.
  virtual void Load(size_t input) = 0;
  // At most this many ranks are kept loaded.
  virtual size_t budget() const = 0;
  virtual std::string Error(size_t input) const = 0;
};

}  // namespace stepline::ui
