// Flows in the visible window; see flow_window.h.
#include "ui/timeline/flow_window.h"

#include <algorithm>
#include <numeric>

namespace stepline::ui {

FlowWindow::FlowWindow(const Trace& trace) {
  const FlowTable& flows = trace.flows();
  const auto starts = trace.slices().start_ns();
  std::vector<TimeNs> hi(flows.size()), lo(flows.size());
  for (uint32_t f = 0; f < flows.size(); ++f) {
    const TimeNs a = starts[flows.from()[f].index()], b = starts[flows.to()[f].index()];
    hi[f] = std::max(a, b);
    lo[f] = std::min(a, b);
    max_span_ = std::max(max_span_, hi[f] - lo[f]);
  }
  by_hi_.resize(flows.size());
  std::iota(by_hi_.begin(), by_hi_.end(), 0u);
  std::stable_sort(by_hi_.begin(), by_hi_.end(), [&](uint32_t x, uint32_t y) { return hi[x] < hi[y]; });
  hi_.reserve(by_hi_.size());
  lo_.reserve(by_hi_.size());
  for (uint32_t f : by_hi_) {
    hi_.push_back(hi[f]);
    lo_.push_back(lo[f]);
  }
}

void FlowWindow::InView(TimeRange visible, size_t cap, std::vector<uint32_t>* out) const {
  out->clear();
  if (cap == 0) return;
  const size_t first = static_cast<size_t>(std::lower_bound(hi_.begin(), hi_.end(), visible.start_ns) - hi_.begin());
  const TimeNs last_hi = visible.end_ns > INT64_MAX - max_span_ ? INT64_MAX : visible.end_ns + max_span_;
  const size_t end = static_cast<size_t>(std::upper_bound(hi_.begin() + first, hi_.end(), last_hi) - hi_.begin());
  // Candidates whose earlier end is after the window do not count; the stride
  // spreads the cap over the candidates.
  const size_t candidates = end - first;
  const size_t stride = std::max<size_t>(1, (candidates + cap - 1) / cap);
  for (size_t i = first; i < end && out->size() < cap; i += stride) {
    if (lo_[i] <= visible.end_ns) out->push_back(by_hi_[i]);
  }
}

}  // namespace stepline::ui
