// Compare on real inputs, against numbers computed without the compare code:
//  - the demo pair input-bound (A) vs baseline (B): the per-step input idle
//    time and step time fall by what the generator planted (demo::DemoTruth);
//  - the shared HTA trace_diff pair (control = A, test = B): op counts and
//    totals equal a python count over the raw JSON events.
#include <gtest/gtest.h>

#include "demo/demo_generator.h"
#include "loaders/load.h"
#include "model/analysis/compare.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

const SummaryRow& InputRow(const Comparison& c, SummaryGroup group, std::string_view label) {
  for (const SummaryRow& r : c.summary) {
    if (r.group == group && r.label == label) return r;
  }
  ADD_FAILURE() << "no summary row " << label;
  return c.summary.front();
}

const OpDiffRow* Find(const Comparison& c, std::string_view name, OpKind kind) {
  for (const OpDiffRow& r : c.ops) {
    if (r.name == name && r.kind == kind) return &r;
  }
  return nullptr;
}

// Per-step means of the planted truth, rounded down like CompareSide's.
struct TruthMeans {
  size_t steps = 0;
  DurNs step_ns = 0;
  DurNs input_ns = 0;
};

TruthMeans MeansOf(const demo::DemoTruth& truth) {
  TruthMeans m;
  m.steps = truth.steps.size();
  DurNs dur = 0, input = 0;
  for (const demo::DemoStepTruth& s : truth.steps) {
    dur += s.dur_ns;
    input += s.gap_ns_by_cause[static_cast<size_t>(demo::DemoIdleCause::kInput)];
  }
  m.step_ns = dur / static_cast<DurNs>(m.steps);
  m.input_ns = input / static_cast<DurNs>(m.steps);
  return m;
}

demo::DemoOutput Demo(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = 6;
  auto demo = demo::GenerateDemo(options);
  if (!demo.ok()) {
    ADD_FAILURE() << scenario << ": " << demo.error();
    return {};
  }
  return std::move(demo).value();
}

TEST(CompareDemoTest, InputIdleFallsByThePlantedAmount) {
  const demo::DemoOutput input_bound = Demo("input-bound");
  const demo::DemoOutput baseline = Demo("baseline");
  ASSERT_FALSE(input_bound.truth.steps.empty());
  ASSERT_FALSE(baseline.truth.steps.empty());
  const TruthMeans a = MeansOf(input_bound.truth);
  const TruthMeans b = MeansOf(baseline.truth);
  ASSERT_GT(a.input_ns, b.input_ns) << "the scenario should plant input-bound idle time";

  const Comparison c = Compare(input_bound.trace, baseline.trace, {}, "input-bound", "baseline");
  EXPECT_EQ(c.a.steps, a.steps);
  EXPECT_EQ(c.b.steps, b.steps);
  EXPECT_EQ(c.a.step_mean_ns, a.step_ns);
  EXPECT_EQ(c.b.step_mean_ns, b.step_ns);
  const SummaryRow& input = InputRow(c, SummaryGroup::kIdleByCause, "input");
  EXPECT_EQ(input.a, double(a.input_ns));
  EXPECT_EQ(input.b, double(b.input_ns));
  EXPECT_EQ(input.delta, double(b.input_ns - a.input_ns));
  EXPECT_EQ(ChangeOf(input), Change::kImprovement);
  EXPECT_EQ(ChangeOf(InputRow(c, SummaryGroup::kRun, "mean step")), Change::kImprovement);
  // The generator's profile window opens inside the unmarked step 0, so every
  // marked step is whole and the alignment anchor is the first one.
  EXPECT_EQ(c.a.first_full_step, 0);
  EXPECT_EQ(c.b.first_full_step, 0);
  EXPECT_EQ(c.a.step_start_ns.front(), input_bound.truth.steps.front().start_ns);
}

// Expected numbers: python3 over the gzipped JSON, counting "ph": "X" events
// by exact name (all their durations are whole microseconds, so total_ns is
// the summed "dur" times 1000):
//   import gzip, json; ev = json.load(gzip.open(p))["traceEvents"]
//   [e for e in ev if e.get("ph") == "X" and e["name"] == NAME]
struct OpCount {
  const char* name;
  OpKind kind;
  uint64_t a_count, b_count;
  DurNs a_total_us, b_total_us;
};
constexpr OpCount kHtaRawCounts[] = {
    {"cudaMemcpyAsync", OpKind::kHostOp, 228, 4812, 77040, 369532},
    {"aten::copy_", OpKind::kHostOp, 444, 5232, 44387, 192021},
    {"Memcpy DtoD (Device -> Device)", OpKind::kMemcpy, 18, 4645, 2735, 92932},
    {"volta_sgemm_128x32_nn", OpKind::kKernel, 0, 242, 0, 23943},  // only in test (V100)
    {"aten::bmm", OpKind::kHostOp, 90, 0, 5481, 0},                // only in control
    {"ProfilerStep#1011", OpKind::kHostOp, 1, 1, 76212, 166403},
};

class CompareHtaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STEPLINE_REQUIRE_SHARED_TRACES();
    a_path_ = ::stepline::testing::SharedTracePath("hta/trace_diff_control_control.json.gz");
    b_path_ = ::stepline::testing::SharedTracePath("hta/trace_diff_test_test.json.gz");
    auto a = loaders::LoadFile(a_path_);
    auto b = loaders::LoadFile(b_path_);
    ASSERT_TRUE(a.ok()) << a.error().ToString();
    ASSERT_TRUE(b.ok()) << b.error().ToString();
    a_ = std::move(a).value();
    b_ = std::move(b).value();
  }
  std::string a_path_, b_path_;
  Trace a_, b_;
};

TEST_F(CompareHtaTest, RawOpCountsMatchAnIndependentCount) {
  CompareOptions options;
  options.normalize_names = false;
  const Comparison c = Compare(a_, b_, options, a_path_, b_path_);
  EXPECT_EQ(c.a.steps, 6u);  // ProfilerStep#1009..1014 in both
  EXPECT_EQ(c.b.steps, 6u);
  for (const OpCount& want : kHtaRawCounts) {
    SCOPED_TRACE(want.name);
    const OpDiffRow* row = Find(c, want.name, want.kind);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->a_count, want.a_count);
    EXPECT_EQ(row->b_count, want.b_count);
    EXPECT_EQ(row->a_total_ns, want.a_total_us * 1000);
    EXPECT_EQ(row->b_total_ns, want.b_total_us * 1000);
    EXPECT_EQ(row->delta_ns, (want.b_total_us - want.a_total_us) * 1000);
    const Presence presence =
        want.a_count == 0 ? Presence::kOnlyB : (want.b_count == 0 ? Presence::kOnlyA : Presence::kBoth);
    EXPECT_EQ(row->presence, presence);
  }
  for (size_t i = 1; i < c.ops.size(); ++i) {
    ASSERT_GE(std::abs(c.ops[i - 1].delta_ns), std::abs(c.ops[i].delta_ns)) << "row " << i;
  }
}

// With normalization: python3 counts by pattern instead of exact name,
//   re.match(r"^void cutlass::Kernel<.*>\(.*\)$", name) on "cat": "kernel"
//   re.match(r"^ProfilerStep#\d+$", name)
// 1638 cutlass kernels (66811 us) of 46 distinct names in control, none in
// test (V100: no cutlass); 6 ProfilerStep slices on each side (464945 us /
// 744401 us).
TEST_F(CompareHtaTest, NormalizedNamesMergeTemplateAndNumberNoise) {
  const Comparison c = Compare(a_, b_, {}, a_path_, b_path_);
  const OpDiffRow* cutlass = Find(c, "void cutlass::Kernel", OpKind::kKernel);
  ASSERT_NE(cutlass, nullptr);
  EXPECT_EQ(cutlass->presence, Presence::kOnlyA);
  EXPECT_EQ(cutlass->a_count, 1638u);
  EXPECT_EQ(cutlass->a_total_ns, 66811 * 1000);
  EXPECT_EQ(cutlass->merged_names, 46u);
  const OpDiffRow* steps = Find(c, "ProfilerStep", OpKind::kHostOp);
  ASSERT_NE(steps, nullptr);
  EXPECT_EQ(steps->presence, Presence::kBoth);
  EXPECT_EQ(steps->merged_names, 6u);  // #1009..#1014, the same six names on both sides
  EXPECT_EQ(steps->a_count, 6u);
  EXPECT_EQ(steps->b_count, 6u);
  EXPECT_EQ(steps->a_total_ns, 464945 * 1000);
  EXPECT_EQ(steps->b_total_ns, 744401 * 1000);
  // Something was recorded before ProfilerStep#1009 in both captures (python:
  // the first "ts" precedes the first step's), so step 0 is whole.
  EXPECT_EQ(c.a.first_full_step, 0);
  EXPECT_EQ(c.b.first_full_step, 0);
}

}  // namespace
}  // namespace stepline::analysis
