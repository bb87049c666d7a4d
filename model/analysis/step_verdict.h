// The verdict of `stepline diff` for CI: is run B faster, slower, or not
// measurably different from run A, judged from the two runs' step times.
//
// Definition. The samples are the full steps of each run (a step the capture
// cut is left out, see compare.h IsCutStep). A two-sided Mann-Whitney U test
// (normal approximation, tie-corrected variance, continuity correction)
// gives p; confidence = 1 - p. The change is 100 * (mean B - mean A) / mean A.
// The result is kSlower (kFaster) when p < alpha, B's steps rank above
// (below) A's, and |change| >= min_change_percent; otherwise kNoChange: the
// difference is within the noise, or too small to matter. Fewer than
// kMinSteps steps on either side is always kNoChange with confidence 0.
// A rank test, not a t-test: step times have long tails (a checkpoint, a
// compile) that a mean-based test would let decide alone.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "model/time.h"

namespace stepline::analysis {

enum class VerdictResult : unsigned char { kNoChange = 0, kFaster, kSlower };
std::string_view VerdictResultName(VerdictResult r);  // "no_change", "faster", "slower"

struct VerdictOptions {
  double alpha = 0.05;              // significance level of the two-sided test
  double min_change_percent = 1.0;  // smaller mean changes are no_change however significant
};

struct StepVerdict {
  VerdictResult result = VerdictResult::kNoChange;
  double change_percent = 0;  // of the mean step, B against A; 0 when A's mean is 0 or B has no steps
  double confidence = 0;      // 1 - p, 0..1
  double p_value = 1;
  double z = 0;               // > 0 when B's steps rank above A's (B slower)
  size_t a_steps = 0, b_steps = 0;  // the sample sizes
};

inline constexpr size_t kMinVerdictSteps = 3;

// One line for people: "slower: mean step +12.3%, confidence 99.9% (20 vs 20
// full steps)"; the same words in `stepline diff` and the compare view.
std::string VerdictLine(const StepVerdict& v);

StepVerdict ComputeStepVerdict(std::span<const DurNs> a, std::span<const DurNs> b, const VerdictOptions& options = {});

}  // namespace stepline::analysis
