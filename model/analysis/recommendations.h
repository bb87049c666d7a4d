// Recommendations: the step breakdown of the primary device turned into plain
// sentences, with XProf's thresholds (>= 20% of the step "highly", >= 5%
// "moderately").
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/analysis/time_category.h"

namespace stepline::analysis {

inline constexpr double kHighlyBoundPercent = 20.0;
inline constexpr double kModeratelyBoundPercent = 5.0;

// Whose software stack the advice names: CUDA (graphs, .item()), ROCm (HIP
// graphs, hipGraphLaunch) or XLA on a TPU (jit, block_until_ready).
enum class AdviceStack : uint8_t { kCuda = 0, kRocm, kXla };

struct RecommendationInput {
  AdviceStack stack = AdviceStack::kCuda;
  std::string device_word = "GPU";  // "GPU", "TPU", "device": the subject of the sentences
  DurNs step_ns = 0;        // summed step time of the primary device
  CategoryNs breakdown{};   // summed over its steps
  CauseNs idle_by_cause{};  // no-kernel time in its steps, by gap cause
  // The most blamed event names per cause (largest total overlap first).
  std::array<std::vector<std::string>, kIdleCauseCount> top_events;
  std::string top_device_op;         // the compute kernel with the most self time (no copy, no collective)
  double top_device_op_percent = 0;  // its share of device time
  // The device copies with the most self time (XLA copy-start / copy-done
  // waits, D2D copies), most first: what a copy-bound step waits for.
  std::vector<std::string> top_copy_ops;
  // The costliest collective ops by self time (XLA's all-reduce-done and
  // other async waits, NCCL kernels): what a communication wait waited for.
  std::vector<std::string> top_collective_ops;
  // The host thread busiest with input-pipeline work inside the steps.
  std::string busiest_input_thread;
  double busiest_input_thread_percent = 0;  // of the step time
};

// Sentences, most significant first. Empty when step_ns is 0.
std::vector<std::string> ComputeRecommendations(const RecommendationInput& in);

// "Highly " / "Moderately " / "" for a share in percent.
std::string_view BoundAdverb(double percent);

}  // namespace stepline::analysis
