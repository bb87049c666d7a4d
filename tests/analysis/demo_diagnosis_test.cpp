// Every demo scenario gets the diagnosis planted in it, in both
// naming styles, and the analysis reproduces the generator's planted ground
// truth exactly: step extents, kernel time, copy time and no-kernel time per
// gap cause, step by step.
#include <gtest/gtest.h>

#include <map>

#include "demo/demo_generator.h"
#include "demo/demo_network.h"
#include "model/analysis/report.h"

namespace stepline::analysis {
namespace {

using demo::DemoScenarioInfo;
using demo::DemoStyle;

struct Case {
  const demo::DemoScenarioInfo* info;
  demo::DemoStyle style;
};

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) {
    cases.push_back({&s, demo::DemoStyle::kTensorFlow});
    cases.push_back({&s, demo::DemoStyle::kPyTorch});
  }
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& p) {
  std::string name = std::string(p.param.info->name) + "_" + std::string(demo::DemoStyleName(p.param.style));
  for (char& c : name) c = (c == '-') ? '_' : c;
  return name;
}

class DemoDiagnosisTest : public ::testing::TestWithParam<Case> {};

IdleCause Dominant(const CauseNs& by_cause) {
  size_t best = 0;
  for (size_t c = 1; c < by_cause.size(); ++c) {
    if (by_cause[c] > by_cause[best]) best = c;
  }
  return static_cast<IdleCause>(best);
}

TEST_P(DemoDiagnosisTest, MatchesPlantedTruthAndExpectedDiagnosis) {
  const Case& c = GetParam();
  demo::DemoOptions options;
  options.scenario = std::string(c.info->name);
  options.style = c.style;
  options.steps = 4;
  auto demo = demo::GenerateDemo(options);
  ASSERT_TRUE(demo.ok()) << demo.error();
  const demo::DemoTruth& truth = demo->truth;
  const Report r = ComputeReport(demo->trace);
  SCOPED_TRACE(std::string(c.info->name) + " / " + std::string(demo::DemoStyleName(c.style)));

  // Steps and their breakdown, exactly.
  ASSERT_EQ(r.steps.size(), truth.steps.size()) << "step source " << StepSourceName(r.step_source);
  for (size_t k = 0; k < r.steps.size(); ++k) {
    const ReportStep& s = r.steps[k];
    const demo::DemoStepTruth& t = truth.steps[k];
    EXPECT_EQ(s.start_ns, t.start_ns) << "step " << k;
    EXPECT_EQ(s.dur_ns, t.dur_ns) << "step " << k;
    EXPECT_EQ(At(s.breakdown, TimeCategory::kCompute) + At(s.breakdown, TimeCategory::kCollective), t.kernel_ns)
        << "step " << k;
    EXPECT_EQ(At(s.breakdown, TimeCategory::kMemcpyH2D), t.memcpy_h2d_ns) << "step " << k;
    for (int cause = 0; cause < kIdleCauseCount; ++cause) {
      EXPECT_EQ(s.idle_by_cause[cause], t.gap_ns_by_cause[cause])
          << "step " << k << " cause " << IdleCauseName(static_cast<IdleCause>(cause));
    }
    DurNs sum = 0;
    for (DurNs v : s.breakdown) sum += v;
    EXPECT_EQ(sum, s.dur_ns) << "step " << k;
    EXPECT_EQ(s.window_dur_ns, s.dur_ns) << "step " << k;  // demo steps never overlap
  }

  // The diagnosis the issue expects.
  ASSERT_GE(r.primary_device_index, 0);
  const CauseNs& step_idle = r.devices[r.primary_device_index].step_idle_by_cause;
  ASSERT_FALSE(r.recommendations.empty());
  const std::string& first = r.recommendations[0];
  if (c.info->compute_bound) {
    EXPECT_EQ(first.rfind("Compute-bound", 0), 0u) << first;
  } else {
    EXPECT_EQ(static_cast<int>(Dominant(step_idle)), static_cast<int>(c.info->dominant_idle_cause));
    const std::map<demo::DemoIdleCause, std::string> phrase = {
        {demo::DemoIdleCause::kInput, "input-bound"},
        {demo::DemoIdleCause::kMemcpyH2D, "host-to-device copies"},
        {demo::DemoIdleCause::kSync, "synchronization-bound"},
        {demo::DemoIdleCause::kLaunch, "kernel-launch-bound"},
        {demo::DemoIdleCause::kHostCompute, "host-compute-bound"}};
    EXPECT_NE(first.find(phrase.at(c.info->dominant_idle_cause)), std::string::npos) << first;
    EXPECT_TRUE(first.rfind("Highly ", 0) == 0 || first.rfind("Moderately ", 0) == 0) << first;
  }
  if (c.info->name == std::string_view("preprocessing")) {
    EXPECT_NE(first.find("input threads are saturated"), std::string::npos) << first;
  }
  if (c.info->name == std::string_view("post-processing")) {
    EXPECT_NE(first.find("on_train_batch_end"), std::string::npos) << first;
  }
  if (c.info->name == std::string_view("inefficient-op")) {
    // The 11x11 conv leads the device ops.
    const ReportOp* top = nullptr;
    for (const ReportOp& op : r.ops) {
      if (IsDeviceOpKind(op.kind)) {
        top = &op;
        break;
      }
    }
    ASSERT_NE(top, nullptr);
    EXPECT_EQ(top->name, demo::DemoOutputConvKernelName());
    EXPECT_NE(first.find(top->name), std::string::npos) << first;
  }
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, DemoDiagnosisTest, ::testing::ValuesIn(AllCases()), CaseName);

}  // namespace
}  // namespace stepline::analysis
