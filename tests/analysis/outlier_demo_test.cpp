// On the demos: in `checkpoint` exactly the planted steps
// (those that save a checkpoint) are outliers and the save is blamed first;
// no other scenario reports an outlier. Both naming styles, 8 steps (saves in
// steps 4 and 8).
#include <gtest/gtest.h>

#include <set>

#include "demo/demo_generator.h"
#include "model/analysis/report.h"

namespace stepline::analysis {
namespace {

using demo::DemoStyle;

class OutlierDemoTest : public ::testing::TestWithParam<std::tuple<std::string_view, demo::DemoStyle>> {};

TEST_P(OutlierDemoTest, OnlyThePlantedCheckpointStepsAreOutliers) {
  const auto [scenario, style] = GetParam();
  demo::DemoOptions options;
  options.scenario = std::string(scenario);
  options.style = style;
  options.steps = 8;
  auto demo = demo::GenerateDemo(options);
  ASSERT_TRUE(demo.ok()) << demo.error();
  const Report r = ComputeReport(demo->trace);
  ASSERT_EQ(r.steps.size(), demo->truth.steps.size());
  std::set<uint32_t> planted, found;
  for (size_t k = 0; k < demo->truth.steps.size(); ++k) {
    if (demo->truth.steps[k].checkpoint_ns > 0) planted.insert(static_cast<uint32_t>(k));
  }
  for (const ReportOutlierStep& o : r.outlier_steps) found.insert(o.step);
  EXPECT_EQ(found, planted);
  if (scenario != "checkpoint") {
    EXPECT_TRUE(planted.empty());
    return;
  }
  EXPECT_EQ(planted, (std::set<uint32_t>{3, 7}));  // step_num 4 and 8
  for (const ReportOutlierStep& o : r.outlier_steps) {
    ASSERT_FALSE(o.blamed.empty()) << o.name;
    EXPECT_EQ(ShortEventName(o.blamed[0]), "save") << o.blamed[0];
    EXPECT_EQ(o.cause, "idle_host_compute");
    // The excess is about the planted save (400 ms, 5% jitter).
    EXPECT_NEAR(static_cast<double>(o.excess_ns), static_cast<double>(demo->truth.steps[o.step].checkpoint_ns),
                0.1 * static_cast<double>(demo->truth.steps[o.step].checkpoint_ns));
  }
  bool sentence = false;
  for (const std::string& s : r.recommendations) sentence |= s.find("`save` (checkpointing)") != std::string::npos;
  EXPECT_TRUE(sentence);
}

std::vector<std::tuple<std::string_view, demo::DemoStyle>> AllScenarios() {
  std::vector<std::tuple<std::string_view, demo::DemoStyle>> out;
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) {
    out.emplace_back(s.name, demo::DemoStyle::kTensorFlow);
    out.emplace_back(s.name, demo::DemoStyle::kPyTorch);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, OutlierDemoTest, ::testing::ValuesIn(AllScenarios()), [](const auto& info) {
  std::string name(std::get<0>(info.param));
  for (char& c : name) c = c == '-' ? '_' : c;
  return name + "_" + std::string(demo::DemoStyleName(std::get<1>(info.param)));
});

}  // namespace
}  // namespace stepline::analysis
