// Hit-testing; see hit_test.h.
#include "ui/timeline/hit_test.h"

#include <algorithm>

namespace stepline::ui {

int RowAtY(const TrackLayout& layout, float y) {
  const auto& rows = layout.rows;
  auto it = std::upper_bound(rows.begin(), rows.end(), y, [](float v, const LayoutRow& r) { return v < r.y; });
  if (it == rows.begin()) return -1;
  --it;
  return y < it->y + it->height ? static_cast<int>(it - rows.begin()) : -1;
}

int ItemAtX(std::span<const SliceDrawItem> items, uint16_t depth, float x, float slop_px) {
  int best = -1;
  for (size_t i = 0; i < items.size(); ++i) {
    const SliceDrawItem& it = items[i];
    if (it.depth != depth) continue;
    const float pad = (it.x1_px - it.x0_px) < 2 * slop_px ? slop_px : 0.f;
    if (x >= it.x0_px - pad && x < it.x1_px + pad) best = static_cast<int>(i);
  }
  return best;
}

}  // namespace stepline::ui
