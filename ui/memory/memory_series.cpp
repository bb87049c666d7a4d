// BuildMemorySeries and the per-pixel step columns of the Memory row.
#include "ui/memory/memory_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/timeline/sampled_search.h"

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
    s.ts_samples = SampleKeys(s.ts.size(), [&](size_t i) { return s.ts[i]; });
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

void FindStepColumnRuns(std::span<const TimeNs> ts, std::span<const TimeNs> ts_samples, const Viewport& viewport,
                        int width, std::vector<StepColumnRun>* runs) {
  runs->clear();
  if (width <= 0 || ts.empty()) return;
  // From the level in force at the left edge to the last sample before the right edge.
  size_t k = static_cast<size_t>(std::upper_bound(ts.begin(), ts.end(), viewport.visible.start_ns) - ts.begin());
  if (k > 0) --k;
  const size_t end = static_cast<size_t>(std::lower_bound(ts.begin() + k, ts.end(), viewport.visible.end_ns) - ts.begin());
  auto column_at = [&](TimeNs t) { return static_cast<int>(std::max(0.0, viewport.TimeToX(t))); };
  auto ts_at = [&](size_t i) { return ts[i]; };
  while (k < end) {
    const int c = column_at(ts[k]);
    if (c >= width) break;
    const size_t j = SampledPartition(ts_samples, k, end, ts_at, [&](TimeNs t) { return column_at(t) <= c; });
    const int x_end = j < ts.size() ? static_cast<int>(std::min<double>(width, viewport.TimeToX(ts[j]))) : width;
    runs->push_back({c, static_cast<uint32_t>(k), static_cast<uint32_t>(j), x_end});
    k = j;
  }
}

void FillStepColumns(std::span<const StepColumnRun> runs, std::span<const double> values,
                     const RangeArgMax<double>& value_max, int width, std::vector<float>* columns) {
  columns->assign(static_cast<size_t>(std::max(width, 0)), std::numeric_limits<float>::quiet_NaN());
  std::vector<float>& out = *columns;
  for (const StepColumnRun& r : runs) {
    const float top = static_cast<float>(values[value_max.Query(values, r.begin, r.end)]);
    out[r.column] = std::isnan(out[r.column]) ? top : std::max(out[r.column], top);
    // The run's last sample holds until the column where the next one starts.
    const float held = static_cast<float>(values[r.end - 1]);
    for (int h = r.column + 1; h < std::min(width, r.x_end); ++h) {
      out[h] = std::isnan(out[h]) ? held : std::max(out[h], held);
    }
  }
}

void BuildStepColumns(std::span<const TimeNs> ts, std::span<const TimeNs> ts_samples, std::span<const double> values,
                      const RangeArgMax<double>& value_max, const Viewport& viewport, int width,
                      std::vector<float>* columns) {
  std::vector<StepColumnRun> runs;
  FindStepColumnRuns(ts, ts_samples, viewport, width, &runs);
  FillStepColumns(runs, values, value_max, width, columns);
}

}  // namespace stepline::ui
