// BuildMemorySeries and the per-pixel step columns of the Memory row.
#include "ui/memory/memory_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/timeline/gallop.h"

namespace stepline::ui {

std::vector<MemorySeries> BuildMemorySeries(const MemoryTable& table, const analysis::MemoryAnalysis& analysis) {
  std::vector<MemorySeries> out;
  out.reserve(table.pools.size());
  for (const analysis::MemoryPoolAnalysis& a : analysis.pools) {
    const MemoryPool& pool = table.pools[a.pool];
    MemorySeries s;
    s.name = pool.name;
    const bool device = pool.kind == MemoryDeviceKind::kGpu || pool.kind == MemoryDeviceKind::kTpu;
    s.device_id = device ? pool.device_id : -1;
    s.relative = pool.relative;
    s.ts.reserve(pool.samples.size());
    s.allocated.reserve(pool.samples.size());
    for (const MemorySample& m : pool.samples) {
      s.ts.push_back(m.ts_ns);
      s.allocated.push_back(static_cast<double>(m.allocated));
    }
    s.peak = static_cast<double>(a.peak_allocated_bytes);
    s.peak_ts = a.peak_ts_ns;
    s.top = s.peak;
    if (pool.has_reserved) {
      s.reserved.reserve(pool.samples.size());
      for (const MemorySample& m : pool.samples) s.reserved.push_back(static_cast<double>(std::max<int64_t>(m.reserved, 0)));
      s.top = std::max(s.top, static_cast<double>(std::max<int64_t>(a.peak_reserved_bytes, 0)));
    }
    s.allocated_max = RangeArgMax<double>(s.allocated);
    s.reserved_max = RangeArgMax<double>(s.reserved);
    for (const MemoryOom& o : pool.ooms) s.ooms.push_back(o.ts_ns);
    out.push_back(std::move(s));
  }
  return out;
}

double SeriesValueAt(std::span<const TimeNs> ts, std::span<const double> values, TimeNs t) {
  const auto it = std::upper_bound(ts.begin(), ts.end(), t);
  if (it == ts.begin()) return std::numeric_limits<double>::quiet_NaN();
  return values[static_cast<size_t>(it - ts.begin()) - 1];
}

void BuildStepColumns(std::span<const TimeNs> ts, std::span<const double> values, const RangeArgMax<double>& value_max,
                      const Viewport& viewport, int width, std::vector<float>* columns) {
  columns->assign(static_cast<size_t>(std::max(width, 0)), std::numeric_limits<float>::quiet_NaN());
  if (width <= 0 || ts.empty()) return;
  // From the level in force at the left edge to the last sample before the right edge.
  size_t k = static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), viewport.visible.start_ns) - ts.begin());
  if (k > 0) --k;
  const size_t end = static_cast<size_t>(std::lower_bound(ts.begin() + k, ts.end(), viewport.visible.end_ns) - ts.begin());
  auto column_of = [&](size_t i) { return static_cast<int>(std::max(0.0, viewport.TimeToX(ts[i]))); };
  std::vector<float>& out = *columns;
  size_t run = 0;
  while (k < end) {
    const int c = column_of(k);
    if (c >= width) break;
    const size_t j = GallopPartitionNear(k, end, std::min(end, k + run), [&](size_t i) { return column_of(i) <= c; });
    run = j - k;
    const float top = static_cast<float>(values[value_max.Query(values, k, j)]);
    out[c] = std::isnan(out[c]) ? top : std::max(out[c], top);
    const double x_end = j < ts.size() ? std::min<double>(width, viewport.TimeToX(ts[j])) : width;
    const float held = static_cast<float>(values[j - 1]);
    for (int h = c + 1; h < std::min(width, static_cast<int>(x_end)); ++h) {
      out[h] = std::isnan(out[h]) ? held : std::max(out[h], held);
    }
    k = j;
  }
}

}  // namespace stepline::ui
