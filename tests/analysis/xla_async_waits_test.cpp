// XLA async pairs are waits, not compute: copy-start / copy-done classify
// as copies, never make a run compute-bound, and the advice names what the
// wait was for. On xprof/tpu_inference_2 the costliest "op" was copy-done.2
// (28%), and the run was called compute-bound with mixed-precision advice.
#include <gtest/gtest.h>

#include <string>

#include "loaders/load.h"
#include "model/analysis/recommendations.h"
#include "model/analysis/report.h"
#include "model/xla_op.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

TEST(XlaAsyncWaitsTest, CopyHalvesAreCopiesAndCollectiveHalvesCollectives) {
  EXPECT_EQ(ClassifyXlaOp("copy-done.2", ""), GpuKind::kMemcpyOther);
  EXPECT_EQ(ClassifyXlaOp("copy-start", ""), GpuKind::kMemcpyOther);
  EXPECT_EQ(ClassifyXlaOp("%copy-done.4 = f32[8]{0} copy-done(%copy-start.4)", ""), GpuKind::kMemcpyOther);
  EXPECT_EQ(ClassifyXlaOp("copy.3", ""), GpuKind::kKernel);  // a layout copy computes
  EXPECT_EQ(ClassifyXlaOp("all-gather-done.1", ""), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("collective-permute-start", ""), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("recv-done.2", ""), GpuKind::kCollective);
}

TEST(XlaAsyncWaitsTest, CopyBoundStepIsNotComputeBoundNorIdleForOtherReasons) {
  RecommendationInput in;
  in.device_word = "TPU";
  in.stack = AdviceStack::kXla;
  in.step_ns = 1000;
  At(in.breakdown, TimeCategory::kCompute) = 700;
  At(in.breakdown, TimeCategory::kMemcpyOther) = 300;
  At(in.idle_by_cause, IdleCause::kOther) = 300;  // the copy falls in a gap with no host cause
  in.top_device_op = "fusion.1";
  in.top_device_op_percent = 50;
  in.top_copy_ops = {"copy-done.2", "copy-done"};
  const std::vector<std::string> out = ComputeRecommendations(in);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0],
            "Highly bound by on-device copies: the TPU waits for copies to finish 30% of the step (copy-done.2, "
            "copy-done); start the copies earlier so they overlap compute, or keep the data where it is used.");
}

TEST(XlaAsyncWaitsTest, TpuInferenceIsNotCalledComputeBoundByACopyWait) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto loaded = loaders::LoadFile(::stepline::testing::SharedTracePath("xprof/tpu_inference_2.xplane.pb"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Report r = ComputeReport(loaded.value());
  bool names_copy = false;
  for (const std::string& s : r.recommendations) {
    EXPECT_EQ(s.find("Compute-bound"), std::string::npos) << s;
    EXPECT_EQ(s.find("mixed precision"), std::string::npos) << s;
    EXPECT_EQ(s.find("idle for other reasons"), std::string::npos) << s;
    names_copy |= s.find("on-device copies") != std::string::npos && s.find("copy-done") != std::string::npos;
  }
  EXPECT_TRUE(names_copy);
  for (const ReportOp& op : r.ops) {
    if (op.name.starts_with("copy-done") || op.name.starts_with("copy-start")) {
      EXPECT_EQ(op.kind, OpKind::kMemcpy) << op.name;
    }
  }
}

}  // namespace
}  // namespace stepline::analysis
