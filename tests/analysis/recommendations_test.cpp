// ComputeRecommendations: XProf's thresholds and the sentence forms.
#include "model/analysis/recommendations.h"

#include <gtest/gtest.h>

#include <string>

namespace stepline::analysis {
namespace {

RecommendationInput Input(IdleCause cause, DurNs idle_ns) {
  RecommendationInput in;
  in.step_ns = 1000;
  At(in.idle_by_cause, cause) = idle_ns;
  At(in.breakdown, TimeCategory::kCompute) = 1000 - idle_ns;
  in.top_device_op = "conv2d_11x11";
  in.top_device_op_percent = 62;
  return in;
}

TEST(RecommendationsTest, Thresholds) {
  EXPECT_EQ(BoundAdverb(20.0), "Highly ");
  EXPECT_EQ(BoundAdverb(19.99), "Moderately ");
  EXPECT_EQ(BoundAdverb(5.0), "Moderately ");
  EXPECT_EQ(BoundAdverb(4.99), "");
  auto first = [](const RecommendationInput& in) { return ComputeRecommendations(in).at(0); };
  EXPECT_EQ(first(Input(IdleCause::kLaunch, 200)).rfind("Highly kernel-launch-bound: ", 0), 0u);
  EXPECT_EQ(first(Input(IdleCause::kLaunch, 199)).rfind("Moderately kernel-launch-bound: ", 0), 0u);
  EXPECT_EQ(first(Input(IdleCause::kLaunch, 49))
                .rfind("Compute-bound: the GPU computes 95% of the step; "
                       "the costliest device op is conv2d_11x11 (62% of device time)",
                       0),
            0u);
}

TEST(RecommendationsTest, NamesEventsAndOrdersByShare) {
  RecommendationInput in = Input(IdleCause::kInput, 460);
  At(in.idle_by_cause, IdleCause::kSync) = 100;
  in.top_events[static_cast<size_t>(IdleCause::kInput)] = {"DataLoader.__next__", "IteratorGetNext"};
  in.busiest_input_thread = "tf_data_worker";
  in.busiest_input_thread_percent = 96;
  const auto r = ComputeRecommendations(in);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].rfind("Highly input-bound: the GPU waits for input 46% of the step (DataLoader.__next__, "
                       "IteratorGetNext); add data-loader workers",
                       0),
            0u)
      << r[0];
  EXPECT_NE(r[0].find("input threads are saturated (tf_data_worker is busy 96% of the step)"), std::string::npos);
  EXPECT_EQ(r[1].rfind("Moderately synchronization-bound: ", 0), 0u);
  EXPECT_TRUE(ComputeRecommendations(RecommendationInput{}).empty());
}

// The fix named in the trace's own stack.
TEST(RecommendationsTest, AdviceNamesTheTracesStack) {
  RecommendationInput in = Input(IdleCause::kLaunch, 400);
  const std::string cuda = ComputeRecommendations(in).at(0);
  EXPECT_NE(cuda.find("CUDA graph"), std::string::npos) << cuda;
  in.stack = AdviceStack::kRocm;
  const std::string rocm = ComputeRecommendations(in).at(0);
  EXPECT_EQ(rocm.find("CUDA"), std::string::npos) << rocm;
  EXPECT_NE(rocm.find("hipGraphLaunch"), std::string::npos) << rocm;
  in.stack = AdviceStack::kXla;
  in.device_word = "TPU";
  const std::string xla = ComputeRecommendations(in).at(0);
  EXPECT_EQ(xla.rfind("Highly kernel-launch-bound: the TPU waits for kernel launches 40% of the step", 0), 0u) << xla;
  EXPECT_NE(xla.find("jit the whole step"), std::string::npos) << xla;
  EXPECT_EQ(xla.find("CUDA"), std::string::npos) << xla;
  RecommendationInput compute = Input(IdleCause::kLaunch, 0);
  compute.device_word = "TPU";
  EXPECT_EQ(ComputeRecommendations(compute).at(0).rfind("Compute-bound: the TPU computes 100%", 0), 0u);
}

}  // namespace
}  // namespace stepline::analysis
