// LaunchLinks; see launch_links.h.
#include "loaders/launch_links.h"

#include <algorithm>
#include <numeric>

#include "model/sl_assert.h"

namespace stepline::loaders {

void LaunchLinks::Index() {
  dense_.clear();
  sparse_.clear();
  if (launches_.empty()) return;
  SL_ASSERT(launches_.size() < kNoLaunch && "more launches than a uint32 ordinal can address");
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Noted& n : launches_) {
    lo = std::min(lo, n.correlation);
    hi = std::max(hi, n.correlation);
  }
  // Dense when a uint32 per id of the range costs at most 4 per launch
  // (16 bytes, what a noted launch itself takes); the slack keeps a few
  // scattered ids in a small trace dense too.
  const uint64_t span = hi - lo;  // ids in the range, minus one; no overflow
  if (span < 4 * static_cast<uint64_t>(launches_.size()) + 1024) {
    dense_base_ = lo;
    dense_.assign(span + 1, kNoLaunch);
    for (uint32_t i = 0; i < launches_.size(); ++i) dense_[launches_[i].correlation - lo] = i;  // last wins
    return;
  }
  sparse_.resize(launches_.size());
  for (uint32_t i = 0; i < launches_.size(); ++i) sparse_[i] = {launches_[i].correlation, i};
  std::sort(sparse_.begin(), sparse_.end());
  // Keep the last (highest ordinal) entry of each id.
  size_t kept = 0;
  for (size_t i = 0; i < sparse_.size(); ++i) {
    if (i + 1 < sparse_.size() && sparse_[i + 1].first == sparse_[i].first) continue;
    sparse_[kept++] = sparse_[i];
  }
  sparse_.resize(kept);
}

uint32_t LaunchLinks::OrdinalOf(uint64_t correlation) const {
  if (!dense_.empty()) {
    if (correlation < dense_base_ || correlation - dense_base_ >= dense_.size()) return kNoLaunch;
    return dense_[correlation - dense_base_];
  }
  auto it = std::lower_bound(sparse_.begin(), sparse_.end(), correlation,
                             [](const std::pair<uint64_t, uint32_t>& e, uint64_t id) { return e.first < id; });
  return it != sparse_.end() && it->first == correlation ? it->second : kNoLaunch;
}

SliceId LaunchLinks::LaunchOf(uint64_t correlation) const {
  const uint32_t ordinal = OrdinalOf(correlation);
  return ordinal == kNoLaunch ? SliceId::None() : launches_[ordinal].slice;
}

std::vector<LaunchLinks::Link> LaunchLinks::Links() const {
  // A counting sort of the activities by their launch's ordinal: launches are
  // noted in slice order by every loader we have, so this is already
  // (launch, activity) order, in two linear passes instead of a sort.
  std::vector<uint32_t> begin(launches_.size() + 1, 0);
  for (const Noted& activity : activities_) {
    const uint32_t ordinal = OrdinalOf(activity.correlation);
    if (ordinal != kNoLaunch) ++begin[ordinal + 1];
  }
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<Link> links(begin.back());
  for (const Noted& activity : activities_) {
    const uint32_t ordinal = OrdinalOf(activity.correlation);  // again: cheaper than keeping a column of them
    if (ordinal != kNoLaunch) links[begin[ordinal]++] = {launches_[ordinal].slice, activity.slice, activity.correlation};
  }
  // Within one launch activities are in the order noted, and a loader may note
  // launches out of slice order: sort only when that left something out of place.
  auto less = [](const Link& a, const Link& b) {
    if (a.from != b.from) return a.from < b.from;
    return a.to < b.to;
  };
  if (!std::is_sorted(links.begin(), links.end(), less)) std::sort(links.begin(), links.end(), less);
  return links;
}

}  // namespace stepline::loaders
