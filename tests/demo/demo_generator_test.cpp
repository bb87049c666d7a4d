// The demo generator: every scenario in both styles builds a valid trace whose
// invariants hold when measured from the trace itself (not only from the
// planted truth), the truth is self-consistent and names the scenario's
// expected cause, the seed fixes the jitter, and --scale scales the events.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "demo/demo_generator.h"
#include "demo/demo_network.h"

namespace stepline::demo {
namespace {

using Span = std::pair<TimeNs, TimeNs>;

demo::DemoOutput Generate(std::string_view scenario, demo::DemoStyle style, int steps = 6, uint64_t seed = 1, int scale = 1) {
  demo::DemoOptions o;
  o.scenario = std::string(scenario);
  o.style = style;
  o.steps = steps;
  o.seed = seed;
  o.scale = scale;
  auto out = demo::GenerateDemo(o);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error());
  return std::move(out.value());
}

// --- Facts measured from the trace alone ---------------------------------------

std::vector<Span> StepSpans(const Trace& t) {
  std::vector<Span> steps;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    const TrackId track = s.track()[i];
    const bool tf_step = t.tracks().kind(track) == TrackKind::kGpuDerived && t.str(t.tracks().name(track)) == "Steps";
    const bool pt_step = t.str(s.name()[i]).starts_with("ProfilerStep#");
    if (tf_step || pt_step) steps.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

DurNs Overlap(Span a, Span b) { return std::max<DurNs>(0, std::min(a.second, b.second) - std::max(a.first, b.first)); }

// Merged intervals of GPU slices of `kind`.
std::vector<Span> GpuUnion(const Trace& t, GpuKind kind) {
  std::vector<Span> spans;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.gpu_kind()[i] == kind) spans.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
  }
  std::sort(spans.begin(), spans.end());
  std::vector<Span> merged;
  for (const Span& sp : spans) {
    if (!merged.empty() && sp.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, sp.second);
    } else {
      merged.push_back(sp);
    }
  }
  return merged;
}

DurNs CoveredInSteps(const std::vector<Span>& spans, const std::vector<Span>& steps) {
  DurNs sum = 0;
  for (const Span& step : steps) {
    for (const Span& sp : spans) sum += Overlap(sp, step);
  }
  return sum;
}

DurNs TotalDur(const std::vector<Span>& spans) {
  DurNs sum = 0;
  for (const Span& s : spans) sum += s.second - s.first;
  return sum;
}

// Summed duration of slices whose name passes `match`, clipped to the steps.
template <typename Match>
DurNs NamedInSteps(const Trace& t, const std::vector<Span>& steps, Match match) {
  std::vector<Span> spans;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    if (match(t.str(s.name()[i]))) spans.push_back({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]});
  }
  return CoveredInSteps(spans, steps);
}

uint64_t CountNamed(const Trace& t, std::string_view name) {
  const StringId id = t.strings().Find(name);
  if (id.is_none()) return 0;
  return static_cast<uint64_t>(std::count(t.slices().name().begin(), t.slices().name().end(), id));
}

bool IsInputCall(std::string_view n) { return n == "IteratorGetNext" || n.find("DataLoader") != n.npos; }

double GpuBusyFraction(const Trace& t) {
  const std::vector<Span> steps = StepSpans(t);
  return static_cast<double>(CoveredInSteps(GpuUnion(t, GpuKind::kKernel), steps)) / TotalDur(steps);
}

// --- Every scenario, both styles -----------------------------------------------------

class DemoScenarioTest : public ::testing::TestWithParam<std::tuple<std::string_view, demo::DemoStyle>> {};

TEST_P(DemoScenarioTest, BuildsAValidTraceWithItsSteps) {
  const auto [scenario, style] = GetParam();
  demo::DemoOutput out = Generate(scenario, style, 4);
  const Trace& t = out.trace;
  EXPECT_EQ(t.CheckInvariants(), "");
  EXPECT_TRUE(t.diagnostics().empty());
  EXPECT_EQ(t.info().format, "demo");
  EXPECT_EQ(StepSpans(t).size(), 4u);
  ASSERT_EQ(out.truth.steps.size(), 4u);
  EXPECT_GT(t.flows().size(), 1000u);
  // Kernels, an H2D copy per step and host slices are all there.
  EXPECT_GT(GpuUnion(t, GpuKind::kKernel).size(), 4000u);
  EXPECT_GE(GpuUnion(t, GpuKind::kMemcpyH2D).size(), 4u);
  for (size_t i = 0; i < t.flows().size(); ++i) {
    ASSERT_EQ(t.flows().kind()[i], FlowKind::kLaunch);
    EXPECT_NE(t.slices().gpu_kind()[t.flows().to()[i].index()], GpuKind::kNone);
    EXPECT_EQ(t.slices().gpu_kind()[t.flows().from()[i].index()], GpuKind::kNone);
  }
}

TEST_P(DemoScenarioTest, TruthAddsUpAndMatchesTheTrace) {
  const auto [scenario, style] = GetParam();
  demo::DemoOutput out = Generate(scenario, style, 4);
  const std::vector<Span> steps = StepSpans(out.trace);
  const std::vector<Span> kernels = GpuUnion(out.trace, GpuKind::kKernel);
  for (size_t i = 0; i < out.truth.steps.size(); ++i) {
    const demo::DemoStepTruth& s = out.truth.steps[i];
    SCOPED_TRACE("step " + std::to_string(s.step_num));
    EXPECT_EQ(s.start_ns, steps[i].first);
    EXPECT_EQ(s.dur_ns, steps[i].second - steps[i].first);
    EXPECT_EQ(s.kernel_ns, CoveredInSteps(kernels, {steps[i]}));
    EXPECT_EQ(s.kernel_ns + s.memcpy_h2d_ns + s.memcpy_d2h_ns + s.idle_ns, s.dur_ns);
    DurNs gaps = 0;
    for (DurNs g : s.gap_ns_by_cause) gaps += g;
    EXPECT_EQ(gaps, s.dur_ns - s.kernel_ns);
    EXPECT_EQ(s.input_wait_ns, NamedInSteps(out.trace, {steps[i]}, IsInputCall));
  }
}

TEST_P(DemoScenarioTest, DominantIdleCauseIsTheScenarios) {
  const auto [scenario, style] = GetParam();
  demo::DemoOutput out = Generate(scenario, style, 4);
  const demo::DemoScenarioInfo* info = demo::FindDemoScenario(scenario);
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(demo::DemoIdleCauseName(out.truth.DominantGapCause()), demo::DemoIdleCauseName(info->dominant_idle_cause));
  // Compute-bound scenarios have no idle cause at XProf's "moderately" level.
  DurNs total = 0;
  for (const demo::DemoStepTruth& s : out.truth.steps) total += s.dur_ns;
  const double dominant_share =
      static_cast<double>(out.truth.gap_ns_by_cause[static_cast<size_t>(out.truth.DominantGapCause())]) / total;
  if (info->compute_bound) {
    EXPECT_LT(dominant_share, 0.05);
  } else {
    EXPECT_GE(dominant_share, 0.10);
  }
}

INSTANTIATE_TEST_SUITE_P(AllScenarios, DemoScenarioTest,
                         ::testing::Combine(::testing::Values("baseline", "small-batch", "input-bound", "preprocessing",
                                                              "h2d-copy", "inefficient-op", "post-processing", "sync",
                                                              "memory-leak", "checkpoint"),
                                            ::testing::Values(demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch)),
                         [](const auto& info) {
                           std::string name(std::get<0>(info.param));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name + "_" + std::string(demo::DemoStyleName(std::get<1>(info.param)));
                         });

TEST(DemoScenarios, TableListsTenScenariosWithExplanations) {
  ASSERT_EQ(demo::DemoScenarios().size(), 10u);
  for (const demo::DemoScenarioInfo& s : demo::DemoScenarios()) {
    EXPECT_FALSE(s.summary.empty()) << s.name;
    EXPECT_FALSE(s.expected_diagnosis.empty()) << s.name;
    EXPECT_EQ(demo::FindDemoScenario(s.name), &s);
  }
  EXPECT_EQ(demo::FindDemoScenario("nope"), nullptr);
}

// --- Scenario invariants, measured from the trace -----------------------------------

class DemoInvariantTest : public ::testing::TestWithParam<demo::DemoStyle> {};

TEST_P(DemoInvariantTest, BaselineGpuIsBusyMostOfTheStep) {
  const Trace t = Generate("baseline", GetParam()).trace;
  const double busy = GpuBusyFraction(t);
  EXPECT_GE(busy, 0.90);
  EXPECT_LE(busy, 0.98);
  const std::vector<Span> steps = StepSpans(t);
  const double step_s = static_cast<double>(TotalDur(steps)) / steps.size() / 1e9;
  EXPECT_NEAR(step_s, 0.64, 0.05);  // batch 64 at ~100 samples/s
}

TEST_P(DemoInvariantTest, SmallBatchHostMostlyInLaunchCalls) {
  const Trace t = Generate("small-batch", GetParam()).trace;
  const std::vector<Span> steps = StepSpans(t);
  const DurNs launch = NamedInSteps(t, steps, [](std::string_view n) { return n.ends_with("LaunchKernel"); });
  EXPECT_GT(static_cast<double>(launch) / TotalDur(steps), 0.6);
  EXPECT_LT(GpuBusyFraction(t), 0.75);
}

TEST_P(DemoInvariantTest, InputBoundMainThreadWaitsInTheIterator) {
  const Trace t = Generate("input-bound", GetParam()).trace;
  const std::vector<Span> steps = StepSpans(t);
  const double wait = static_cast<double>(NamedInSteps(t, steps, IsInputCall)) / TotalDur(steps);
  EXPECT_GE(wait, 0.70);
  EXPECT_LE(wait, 0.85);
}

TEST_P(DemoInvariantTest, PreprocessingSaturatesTheMapWorkers) {
  demo::DemoOutput out = Generate("preprocessing", GetParam());
  const Trace& t = out.trace;
  const std::vector<Span> steps = StepSpans(t);
  const Span all = {steps.front().first, steps.back().second};
  const std::string_view map_name = GetParam() == demo::DemoStyle::kTensorFlow ? "Iterator::Model::Prefetch::ParallelMapV2"
                                                                         : "SegmentationDataset.__getitem__";
  const std::string_view batch_name =
      GetParam() == demo::DemoStyle::kTensorFlow ? "Iterator::Model::Prefetch::BatchV2" : "default_collate";
  DurNs busy = 0;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string_view n = t.str(s.name()[i]);
    if (n == map_name || n == batch_name) busy += Overlap({s.start_ns()[i], s.start_ns()[i] + s.dur_ns()[i]}, all);
  }
  const double fraction = static_cast<double>(busy) / (4.0 * (all.second - all.first));
  EXPECT_GE(fraction, 0.93);
  EXPECT_LE(fraction, 0.99);
  EXPECT_NEAR(fraction, out.truth.map_worker_busy_fraction, 1e-9);
  EXPECT_GT(static_cast<double>(NamedInSteps(t, steps, IsInputCall)) / TotalDur(steps), 0.5);
}

TEST_P(DemoInvariantTest, H2DCopyTakesAFifthOfTheStep) {
  const Trace copy = Generate("h2d-copy", GetParam()).trace;
  const Trace base = Generate("baseline", GetParam()).trace;
  auto share = [](const Trace& t) {
    const std::vector<Span> steps = StepSpans(t);
    return static_cast<double>(CoveredInSteps(GpuUnion(t, GpuKind::kMemcpyH2D), steps)) / TotalDur(steps);
  };
  EXPECT_GE(share(copy), 0.15);
  EXPECT_LT(share(base), 0.05);
}

TEST_P(DemoInvariantTest, InefficientOpConvLeadsKernelTime) {
  const Trace t = Generate("inefficient-op", GetParam()).trace;
  std::map<std::string_view, DurNs> by_name;
  const SliceTable& s = t.slices();
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.gpu_kind()[i] == GpuKind::kKernel) by_name[t.str(s.name()[i])] += s.dur_ns()[i];
  }
  auto top = std::max_element(by_name.begin(), by_name.end(),
                              [](const auto& a, const auto& b) { return a.second < b.second; });
  EXPECT_EQ(top->first, demo::DemoOutputConvKernelName());
  EXPECT_GE(GpuBusyFraction(t), 0.90);
  // Without the 11x11 conv the kernel does not exist.
  EXPECT_EQ(CountNamed(Generate("baseline", GetParam()).trace, demo::DemoOutputConvKernelName()), 0u);
}

TEST_P(DemoInvariantTest, PostProcessingLeavesTheGpuIdleHalfTheStep) {
  const Trace t = Generate("post-processing", GetParam()).trace;
  const double idle = 1.0 - GpuBusyFraction(t);
  EXPECT_GE(idle, 0.45);
  EXPECT_LE(idle, 0.65);
  const std::vector<Span> steps = StepSpans(t);
  const DurNs callback = NamedInSteps(t, steps, [](std::string_view n) { return n.ends_with("on_train_batch_end"); });
  EXPECT_NEAR(static_cast<double>(callback) / steps.size() / 1e9, 0.8, 0.05);
}

TEST_P(DemoInvariantTest, SyncCopiesAScalarAndBlocksAfterEveryOp) {
  const demo::DemoStyle style = GetParam();
  const Trace t = Generate("sync", style, 3).trace;
  const Trace base = Generate("baseline", style, 3).trace;
  const bool tf = style == demo::DemoStyle::kTensorFlow;
  const std::string_view op_example = tf ? "model/conv1_conv/Conv2D" : "aten::conv2d";
  const std::string_view item = tf ? "Tensor.numpy" : "aten::item";
  const std::string_view sync = tf ? "cuMemcpyDtoH_v2" : "cudaStreamSynchronize";
  const uint64_t d2h = GpuUnion(t, GpuKind::kMemcpyD2H).size();
  // One .item() per op (the baseline only fetches the loss once a step).
  EXPECT_EQ(CountNamed(t, item), d2h);
  EXPECT_EQ(CountNamed(t, sync), d2h);
  EXPECT_GT(d2h, 10 * GpuUnion(base, GpuKind::kMemcpyD2H).size());
  EXPECT_GT(CountNamed(t, op_example), 0u);
  // Every D2H copy starts after the kernel before it ends and the next kernel
  // waits for the host to wake up: the GPU is busier in the baseline.
  EXPECT_LT(GpuBusyFraction(t), GpuBusyFraction(base) - 0.05);
}

INSTANTIATE_TEST_SUITE_P(BothStyles, DemoInvariantTest, ::testing::Values(demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch),
                         [](const auto& info) { return std::string(demo::DemoStyleName(info.param)); });

// --- Seeds, scale, errors -------------------------------------------------------------

TEST(DemoGenerator, SameSeedSameTraceOtherSeedOtherJitter) {
  const Trace a = Generate("baseline", demo::DemoStyle::kPyTorch, 3, 7).trace;
  const Trace b = Generate("baseline", demo::DemoStyle::kPyTorch, 3, 7).trace;
  const Trace c = Generate("baseline", demo::DemoStyle::kPyTorch, 3, 8).trace;
  ASSERT_EQ(a.slices().size(), b.slices().size());
  EXPECT_TRUE(std::equal(a.slices().start_ns().begin(), a.slices().start_ns().end(), b.slices().start_ns().begin()));
  EXPECT_TRUE(std::equal(a.slices().dur_ns().begin(), a.slices().dur_ns().end(), b.slices().dur_ns().begin()));
  EXPECT_TRUE(std::equal(a.slices().name().begin(), a.slices().name().end(), b.slices().name().begin()));
  // Another seed moves events but keeps the structure of a step.
  EXPECT_EQ(GpuUnion(a, GpuKind::kMemcpyH2D).size(), GpuUnion(c, GpuKind::kMemcpyH2D).size());
  const size_t n = std::min(a.slices().size(), c.slices().size());
  size_t differing = 0;
  for (size_t i = 0; i < n; ++i) differing += a.slices().dur_ns()[i] != c.slices().dur_ns()[i];
  EXPECT_GT(differing, n / 2);
}

TEST(DemoGenerator, ScaleMultipliesTheEvents) {
  demo::DemoOutput one = Generate("small-batch", demo::DemoStyle::kTensorFlow, 2, 1, 1);
  demo::DemoOutput two = Generate("small-batch", demo::DemoStyle::kTensorFlow, 2, 1, 2);
  demo::DemoOutput four = Generate("small-batch", demo::DemoStyle::kTensorFlow, 2, 1, 4);
  EXPECT_EQ(StepSpans(four.trace).size(), 4 * StepSpans(one.trace).size());
  EXPECT_EQ(four.truth.steps.size(), 8u);
  // Each extra step adds the same events; only the fixed frame (step 0's
  // tail, step N+1's head) does not scale.
  const double per_step_1_to_2 = static_cast<double>(two.trace.slices().size() - one.trace.slices().size()) / 2;
  const double per_step_1_to_4 = static_cast<double>(four.trace.slices().size() - one.trace.slices().size()) / 6;
  EXPECT_NEAR(per_step_1_to_4 / per_step_1_to_2, 1.0, 0.02);
  EXPECT_GT(four.trace.slices().size(), 2 * one.trace.slices().size());
}

TEST(DemoGenerator, RejectsUnknownScenariosAndBadCounts) {
  demo::DemoOptions o;
  o.scenario = "inputbound";
  auto r = demo::GenerateDemo(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("inputbound"), std::string::npos);
  EXPECT_NE(r.error().find("input-bound"), std::string::npos);  // lists the valid ones
  EXPECT_NE(r.error().find("post-processing"), std::string::npos);
  o.scenario = "baseline";
  o.steps = 0;
  EXPECT_FALSE(demo::GenerateDemo(o).ok());
  o.steps = 10;
  o.scale = demo::kDemoMaxSteps;
  EXPECT_FALSE(demo::GenerateDemo(o).ok());
}

TEST(DemoGenerator, TraceOnlyEntryPointSkipsTheTruth) {
  demo::DemoOptions o;
  o.steps = 2;
  auto t = demo::GenerateDemoTrace(o);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(StepSpans(t.value()).size(), 2u);  // input-bound by default
  EXPECT_GT(CountNamed(t.value(), "IteratorGetNext"), 0u);
}

}  // namespace
}  // namespace stepline::demo
