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

TEST(XlaAsyncWaitsTest, EveryAsyncPairHalfIsAWait) {
  for (const char* op : {"all-reduce", "all-gather", "collective-permute", "reduce-scatter", "all-to-all"}) {
    for (const char* half : {"-start", "-done"}) {
      const std::string name = std::string(op) + half + ".7";
      EXPECT_EQ(ClassifyXlaOp(name, ""), GpuKind::kCollective) << name;
      EXPECT_EQ(ClassifyXlaOp("%" + name + " = f32[8]{0} " + op + half + "(%p)", ""), GpuKind::kCollective) << name;
    }
  }
  for (const char* name : {"send.1", "send-done.1", "recv.2", "recv-done.2"}) {
    EXPECT_EQ(ClassifyXlaOp(name, ""), GpuKind::kCollective) << name;
  }
  EXPECT_EQ(ClassifyXlaOp("sendfoo.1", ""), GpuKind::kKernel);  // a fusion's name, not send
}

TEST(XlaAsyncWaitsTest, CommunicationBoundNamesTheCollectivesWaitedFor) {
  RecommendationInput in;
  in.device_word = "TPU";
  in.stack = AdviceStack::kXla;
  in.step_ns = 1000;
  At(in.breakdown, TimeCategory::kCompute) = 400;
  At(in.breakdown, TimeCategory::kCollective) = 600;
  in.top_device_op = "fusion.1";
  in.top_device_op_percent = 40;
  in.top_collective_ops = {"all-reduce-done.2", "all-gather-done"};
  const std::vector<std::string> out = ComputeRecommendations(in);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0],
            "Highly communication-bound: collectives run without overlapping compute 60% of the step "
            "(all-reduce-done.2, all-gather-done); overlap communication with compute or bucket gradients.");
}

// Every shared XSpace: no async half is counted as compute, and a run
// called compute-bound names a compute op, never a wait.
TEST(XlaAsyncWaitsTest, SharedXSpacesCountNoAsyncHalfAsCompute) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* relative : {"xprof/tpu_inference_2.xplane.pb", "xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb",
                               "tracelens/jax08_conv_mi300.xplane.pb", "tracelens/jax08_gemm_mi300.xplane.pb",
                               "tracelens/jax_conv_minimal_legacy_mi300.xplane.pb"}) {
    SCOPED_TRACE(relative);
    auto loaded = loaders::LoadFile(::stepline::testing::SharedTracePath(relative));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Trace& t = loaded.value();
    for (size_t i = 0; i < t.slices().size(); ++i) {
      if (t.slices().gpu_kind()[i] != GpuKind::kKernel) continue;
      const std::string_view group = HloOpGroup(HloInstructionName(t.str(t.slices().name()[i])));
      for (const char* op : {"copy", "all-reduce", "all-gather", "collective-permute", "reduce-scatter", "all-to-all",
                             "send", "recv"}) {
        EXPECT_FALSE(group == std::string(op) + "-start" || group == std::string(op) + "-done") << group;
      }
    }
    const Report r = ComputeReport(t);
    for (const std::string& s : r.recommendations) {
      if (!s.starts_with("Compute-bound")) continue;
      EXPECT_EQ(s.find("-done"), std::string::npos) << s;
      EXPECT_EQ(s.find("-start"), std::string::npos) << s;
    }
  }
}

}  // namespace
}  // namespace stepline::analysis
