// The Mann-Whitney verdict of step_verdict.h.
#include "model/analysis/step_verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

namespace stepline::analysis {

std::string_view VerdictResultName(VerdictResult r) {
  switch (r) {
    case VerdictResult::kNoChange: return "no_change";
    case VerdictResult::kFaster: return "faster";
    case VerdictResult::kSlower: return "slower";
  }
  return "no_change";
}

std::string VerdictLine(const StepVerdict& v) {
  char text[160];
  if (v.a_steps < kMinVerdictSteps || v.b_steps < kMinVerdictSteps) {
    std::snprintf(text, sizeof text, "no_change: too few full steps to judge (%zu vs %zu, need %zu each)", v.a_steps,
                  v.b_steps, kMinVerdictSteps);
  } else {
    std::snprintf(text, sizeof text, "%s: mean step %+.1f%%, confidence %.1f%% (%zu vs %zu full steps)",
                  std::string(VerdictResultName(v.result)).c_str(), v.change_percent,
                  // Rounded down: a confidence below 1 never prints as 100%.
                  std::floor(1000 * v.confidence) / 10, v.a_steps,
                  v.b_steps);
  }
  return text;
}

namespace {

double Mean(std::span<const DurNs> v) {
  double sum = 0;
  for (const DurNs d : v) sum += static_cast<double>(d);
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

}  // namespace

StepVerdict ComputeStepVerdict(std::span<const DurNs> a, std::span<const DurNs> b, const VerdictOptions& options) {
  StepVerdict v;
  v.a_steps = a.size();
  v.b_steps = b.size();
  const double mean_a = Mean(a), mean_b = Mean(b);
  // No steps on a side: no mean to compare, not a 100% change.
  v.change_percent = mean_a > 0 && !b.empty() ? 100.0 * (mean_b - mean_a) / mean_a : 0;
  if (a.size() < kMinVerdictSteps || b.size() < kMinVerdictSteps) return v;

  // Midranks of the pooled sample; `second` says which run a value is from.
  std::vector<std::pair<DurNs, bool>> pooled;
  pooled.reserve(a.size() + b.size());
  for (const DurNs d : a) pooled.emplace_back(d, false);
  for (const DurNs d : b) pooled.emplace_back(d, true);
  std::sort(pooled.begin(), pooled.end());
  const double n_a = static_cast<double>(a.size()), n_b = static_cast<double>(b.size());
  const double n = n_a + n_b;
  double rank_sum_b = 0;
  double tie_term = 0;  // sum of t^3 - t over groups of t equal values
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_b += midrank;
    }
    tie_term += t * t * t - t;
    i = j;
  }
  const double u_b = rank_sum_b - n_b * (n_b + 1) / 2;
  const double mean_u = n_a * n_b / 2;
  const double var_u = n_a * n_b / 12 * ((n + 1) - tie_term / (n * (n - 1)));
  if (var_u <= 0) return v;  // every value equal: nothing differs
  const double diff = u_b - mean_u;
  // Continuity correction: U moves in steps of 1 (of 0.5 with ties).
  const double corrected = std::max(std::fabs(diff) - 0.5, 0.0);
  const double z = corrected / std::sqrt(var_u);
  v.z = diff < 0 ? -z : z;
  v.p_value = std::erfc(z / std::sqrt(2.0));  // two-sided
  v.confidence = 1 - v.p_value;
  const bool significant = v.p_value < options.alpha;
  const bool large = std::fabs(v.change_percent) >= options.min_change_percent;
  // The rank test and the mean must agree on the direction.
  if (significant && large && v.z > 0 && v.change_percent > 0) v.result = VerdictResult::kSlower;
  if (significant && large && v.z < 0 && v.change_percent < 0) v.result = VerdictResult::kFaster;
  return v;
}

}  // namespace stepline::analysis
