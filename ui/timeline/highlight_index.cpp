// Highlights inside folded runs; see highlight_index.h.
#include "ui/timeline/highlight_index.h"

#include <algorithm>

namespace stepline::ui {

void HighlightIndex::Build(const Trace& trace, std::span<const uint32_t> rows) {
  rows_.assign(rows.begin(), rows.end());
  keys_.clear();
  keys_.reserve(rows.size());
  const auto depth = trace.slices().depth();
  for (uint32_t r : rows) keys_.push_back(uint64_t{depth[r]} << 32 | r);
  std::sort(keys_.begin(), keys_.end());
}

bool HighlightIndex::Contains(uint32_t row) const { return std::binary_search(rows_.begin(), rows_.end(), row); }

bool HighlightIndex::AnyInDepthRun(std::span<const uint32_t> rows, size_t first, size_t count, uint16_t depth) const {
  if (keys_.empty() || count == 0) return false;
  const uint64_t lo = uint64_t{depth} << 32 | rows[first];
  const uint64_t hi = uint64_t{depth} << 32 | rows[first + count - 1];
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), lo);
  return it != keys_.end() && *it <= hi;
}

bool HighlightIndex::AnyInLaneRun(std::span<const uint32_t> rows, size_t first, size_t count) const {
  if (rows_.empty()) return false;
  const size_t end = first + std::min<size_t>(count, kMaxLaneScan);
  for (size_t i = first; i < end; ++i) {
    if (Contains(rows[i])) return true;
  }
  return false;
}

}  // namespace stepline::ui
