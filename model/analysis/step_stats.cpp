// ComputeStepStats and GpuBusyPercent.
#include "model/analysis/step_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace stepline::analysis {

StepStats ComputeStepStats(const StepSet& steps) {
  StepStats s;
  s.count = steps.steps.size();
  if (s.count == 0) return s;
  s.min_ns = s.max_ns = steps.steps.front().dur_ns;
  for (const Step& st : steps.steps) {
    s.total_ns += st.dur_ns;
    s.min_ns = std::min(s.min_ns, st.dur_ns);
    s.max_ns = std::max(s.max_ns, st.dur_ns);
  }
  const double mean = static_cast<double>(s.total_ns) / static_cast<double>(s.count);
  s.mean_ns = std::llround(mean);
  if (s.count > 1) {
    double sq = 0;
    for (const Step& st : steps.steps) sq += std::pow(static_cast<double>(st.dur_ns) - mean, 2);
    s.sample_std_ns = std::llround(std::sqrt(sq / static_cast<double>(s.count - 1)));
  }
  std::vector<DurNs> sorted;
  sorted.reserve(steps.steps.size());
  for (const Step& st : steps.steps) {
    sorted.push_back(st.dur_ns);
    s.window_total_ns += st.window_dur_ns;
  }
  std::sort(sorted.begin(), sorted.end());
  s.p50_ns = NearestRankPercentile(sorted, 50);
  s.p90_ns = NearestRankPercentile(sorted, 90);
  s.p99_ns = NearestRankPercentile(sorted, 99);
  return s;
}

DurNs NearestRankPercentile(const std::vector<DurNs>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const size_t index = static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(sorted.size()))) - 1;
  return sorted[index];
}

double GpuBusyPercent(const CategoryNs& breakdown_total) {
  const DurNs total = std::accumulate(breakdown_total.begin(), breakdown_total.end(), DurNs{0});
  const DurNs kernel = At(breakdown_total, TimeCategory::kCompute) + At(breakdown_total, TimeCategory::kCollective);
  return total > 0 ? 100.0 * static_cast<double>(kernel) / static_cast<double>(total) : 0;
}

}  // namespace stepline::analysis
