// Compare's building blocks on hand-built op tables and TraceAnalyses with
// hand-checked numbers:
// op rows merged by (name, kind), only-A / only-B marking, the |delta| sort,
// per-step deltas, summary rows (delta % when A is 0, improvement sense),
// per-step means, and the first full step.
#include "model/analysis/compare.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stepline::analysis {
namespace {

// A run's op table for DiffOps: rows keyed by ids of its own pool.
struct Ops {
  StringPool pool;
  std::vector<OpStat> rows;
  Ops& Add(std::string_view name, OpKind kind, uint64_t count, DurNs total_ns) {
    OpStat op;
    op.name = pool.Intern(name);
    op.kind = kind;
    op.count = count;
    op.total_ns = total_ns;
    rows.push_back(op);
    return *this;
  }
};

std::vector<OpDiffRow> Diff(const Ops& a, size_t a_steps, const Ops& b, size_t b_steps, bool normalize_names) {
  return DiffOps(a.pool, a.rows, a_steps, b.pool, b.rows, b_steps, normalize_names);
}

const OpDiffRow* Find(const std::vector<OpDiffRow>& rows, std::string_view name, OpKind kind) {
  for (const OpDiffRow& r : rows) {
    if (r.name == name && r.kind == kind) return &r;
  }
  return nullptr;
}

TEST(DiffOpsTest, MergesByNameAndKindAndMarksOneSidedRows) {
  Ops a, b;
  a.Add("matmul", OpKind::kKernel, 10, 1000).Add("matmul", OpKind::kHostOp, 10, 50).Add("old_op", OpKind::kHostOp, 3, 300);
  b.Add("matmul", OpKind::kKernel, 12, 1500).Add("matmul", OpKind::kHostOp, 12, 40).Add("new_op", OpKind::kKernel, 2, 20);
  const std::vector<OpDiffRow> rows = Diff(a, 2, b, 4, /*normalize_names=*/false);
  ASSERT_EQ(rows.size(), 4u);

  const OpDiffRow* kernel = Find(rows, "matmul", OpKind::kKernel);
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->presence, Presence::kBoth);
  EXPECT_EQ(kernel->a_count, 10u);
  EXPECT_EQ(kernel->b_count, 12u);
  EXPECT_EQ(kernel->a_total_ns, 1000);
  EXPECT_EQ(kernel->b_total_ns, 1500);
  EXPECT_EQ(kernel->delta_ns, 500);
  // 1500 / 4 steps - 1000 / 2 steps = 375 - 500.
  EXPECT_DOUBLE_EQ(kernel->delta_per_step_ns, -125.0);
  // The row carries each side's name id, in that side's pool.
  EXPECT_EQ(kernel->a_names, std::vector<StringId>{a.pool.Find("matmul")});
  EXPECT_EQ(kernel->b_names, std::vector<StringId>{b.pool.Find("matmul")});

  const OpDiffRow* host = Find(rows, "matmul", OpKind::kHostOp);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->delta_ns, -10);

  const OpDiffRow* old_op = Find(rows, "old_op", OpKind::kHostOp);
  ASSERT_NE(old_op, nullptr);
  EXPECT_EQ(old_op->presence, Presence::kOnlyA);
  EXPECT_EQ(old_op->b_count, 0u);
  EXPECT_EQ(old_op->delta_ns, -300);
  EXPECT_EQ(old_op->a_names, std::vector<StringId>{a.pool.Find("old_op")});
  EXPECT_TRUE(old_op->b_names.empty());

  const OpDiffRow* new_op = Find(rows, "new_op", OpKind::kKernel);
  ASSERT_NE(new_op, nullptr);
  EXPECT_EQ(new_op->presence, Presence::kOnlyB);
  EXPECT_EQ(new_op->a_total_ns, 0);
  EXPECT_EQ(new_op->delta_ns, 20);
  EXPECT_DOUBLE_EQ(new_op->delta_per_step_ns, 5.0);  // 20 / 4 - 0 / 2
}

TEST(DiffOpsTest, SortsByAbsoluteDeltaDescending) {
  Ops a, b;
  a.Add("small", OpKind::kHostOp, 1, 100).Add("drop", OpKind::kHostOp, 1, 900).Add("same", OpKind::kHostOp, 1, 5);
  a.Add("tie_b", OpKind::kHostOp, 1, 0);
  b.Add("small", OpKind::kHostOp, 1, 150).Add("drop", OpKind::kHostOp, 1, 100).Add("same", OpKind::kHostOp, 1, 5);
  b.Add("grow", OpKind::kHostOp, 1, 300).Add("tie_a", OpKind::kHostOp, 1, 50);
  const std::vector<OpDiffRow> rows = Diff(a, 1, b, 1, false);
  // |deltas|: drop 800, grow 300, small 50, tie_a 50, same 0, tie_b 0; ties by name.
  const std::vector<std::string> expected = {"drop", "grow", "small", "tie_a", "same", "tie_b"};
  ASSERT_EQ(rows.size(), expected.size());
  for (size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i].name, expected[i]) << "row " << i;
  EXPECT_EQ(rows[0].delta_ns, -800);
}

TEST(DiffOpsTest, NormalizationMergesTemplateNoise) {
  Ops a, b;
  a.Add("gemm<float, 64>(float*)", OpKind::kKernel, 2, 200).Add("gemm<float, 128>(float*)", OpKind::kKernel, 1, 300);
  b.Add("gemm<half, 64>(half*)", OpKind::kKernel, 4, 100);

  const std::vector<OpDiffRow> merged = Diff(a, 1, b, 1, /*normalize_names=*/true);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].name, "gemm");
  EXPECT_EQ(merged[0].presence, Presence::kBoth);
  EXPECT_EQ(merged[0].a_count, 3u);
  EXPECT_EQ(merged[0].b_count, 4u);
  EXPECT_EQ(merged[0].a_total_ns, 500);
  EXPECT_EQ(merged[0].delta_ns, -400);
  EXPECT_EQ(merged[0].merged_names, 3u);
  // Both raw names of A are carried as ids, so the window highlights both.
  EXPECT_EQ(merged[0].a_names,
            (std::vector<StringId>{a.pool.Find("gemm<float, 64>(float*)"), a.pool.Find("gemm<float, 128>(float*)")}));
  EXPECT_EQ(merged[0].b_names, std::vector<StringId>{b.pool.Find("gemm<half, 64>(half*)")});

  const std::vector<OpDiffRow> raw = Diff(a, 1, b, 1, /*normalize_names=*/false);
  ASSERT_EQ(raw.size(), 3u);
  for (const OpDiffRow& r : raw) EXPECT_EQ(r.merged_names, 1u);
  EXPECT_EQ(Find(raw, "gemm<half, 64>(half*)", OpKind::kKernel)->presence, Presence::kOnlyB);
}

TEST(SummaryTest, DeltaPercentWhenAIsZero) {
  EXPECT_DOUBLE_EQ(DeltaPercent(200, 150), -25.0);
  EXPECT_DOUBLE_EQ(DeltaPercent(0, 0), 0.0);
  EXPECT_TRUE(std::isnan(DeltaPercent(0, 7)));
  EXPECT_DOUBLE_EQ(DeltaPercent(7, 0), -100.0);
}

TEST(SummaryTest, ChangeFollowsTheRowsSense) {
  SummaryRow row;
  row.sense = Sense::kLowerIsBetter;
  row.delta = -3;
  EXPECT_EQ(ChangeOf(row), Change::kImprovement);
  row.delta = 3;
  EXPECT_EQ(ChangeOf(row), Change::kRegression);
  row.sense = Sense::kHigherIsBetter;
  EXPECT_EQ(ChangeOf(row), Change::kImprovement);
  row.sense = Sense::kNeutral;
  EXPECT_EQ(ChangeOf(row), Change::kNone);
  row.sense = Sense::kLowerIsBetter;
  row.delta = 0;
  EXPECT_EQ(ChangeOf(row), Change::kNone);
}

// A hand-built analysis: one device (primary) whose steps are `steps`, each
// split into compute and input idle.
struct HandRun {
  Trace trace;  // empty: no names needed, span unknown
  TraceAnalysis analysis;
  HandRun& Step(TimeNs start_ns, DurNs compute_ns, DurNs idle_input_ns) {
    analysis.steps.steps.push_back({"step", start_ns, compute_ns + idle_input_ns, SliceId()});
    if (analysis.devices.empty()) analysis.devices.emplace_back();
    analysis.primary_device = 0;
    StepBreakdown b;
    At(b.category_ns, TimeCategory::kCompute) = compute_ns;
    At(b.category_ns, TimeCategory::kIdleInput) = idle_input_ns;
    At(b.idle_by_cause, IdleCause::kInput) = idle_input_ns;
    analysis.devices[0].steps.push_back(b);
    return *this;
  }
  CompareRun As(std::string_view path) const { return CompareRun{trace, analysis, path}; }
};

const SummaryRow& Row(const Comparison& c, SummaryGroup group, std::string_view label) {
  for (const SummaryRow& r : c.summary) {
    if (r.group == group && r.label == label) return r;
  }
  ADD_FAILURE() << "no summary row " << label;
  return c.summary.front();
}

TEST(CompareTest, SummaryRowsArePerStepMeans) {
  HandRun a, b;
  a.Step(0, 60, 40).Step(100, 60, 41);                    // mean step 100 (201 / 2, floor)
  b.Step(0, 60, 10).Step(70, 60, 10).Step(140, 63, 10);  // mean step 71
  OpStat only_a;
  only_a.name = a.trace.mutable_strings().Intern("only_a");
  only_a.count = 1;
  only_a.total_ns = 10;
  a.analysis.ops.ops = {only_a};
  const Comparison c = Compare(a.As("a.json"), b.As("b.json"));
  EXPECT_EQ(c.a.path, "a.json");
  EXPECT_EQ(c.b.path, "b.json");
  EXPECT_EQ(c.a.steps, 2u);
  EXPECT_EQ(c.a.step_mean_ns, 100);
  EXPECT_EQ(c.b.step_mean_ns, 71);
  EXPECT_EQ(At(c.a.idle_by_cause_mean, IdleCause::kInput), 40);  // 81 / 2, floor
  EXPECT_EQ(c.b.step_dur_ns, (std::vector<DurNs>{70, 70, 73}));
  ASSERT_EQ(c.b.step_breakdown.size(), 3u);
  EXPECT_EQ(At(c.b.step_breakdown[2], TimeCategory::kCompute), 63);

  // 3 run rows + 11 categories + 7 causes.
  EXPECT_EQ(c.summary.size(), 3u + kTimeCategoryCount + kIdleCauseCount);
  const SummaryRow& steps = Row(c, SummaryGroup::kRun, "steps");
  EXPECT_EQ(steps.sense, Sense::kNeutral);
  EXPECT_DOUBLE_EQ(steps.delta, 1.0);
  const SummaryRow& mean = Row(c, SummaryGroup::kRun, "mean step");
  EXPECT_DOUBLE_EQ(mean.delta, -29.0);
  EXPECT_DOUBLE_EQ(mean.delta_percent, -29.0);
  EXPECT_EQ(ChangeOf(mean), Change::kImprovement);
  // GPU busy: A 120 / 201, B 183 / 213.
  const SummaryRow& busy = Row(c, SummaryGroup::kRun, "GPU busy");
  EXPECT_NEAR(busy.a, 100.0 * 120 / 201, 1e-9);
  EXPECT_NEAR(busy.b, 100.0 * 183 / 213, 1e-9);
  EXPECT_EQ(ChangeOf(busy), Change::kImprovement);
  const SummaryRow& input = Row(c, SummaryGroup::kIdleByCause, "input");
  EXPECT_DOUBLE_EQ(input.a, 40.0);
  EXPECT_DOUBLE_EQ(input.b, 10.0);
  const SummaryRow& compute = Row(c, SummaryGroup::kBreakdown, "compute");
  EXPECT_DOUBLE_EQ(compute.b, 61.0);  // 183 / 3
  const SummaryRow& sync = Row(c, SummaryGroup::kBreakdown, "idle_sync");
  EXPECT_DOUBLE_EQ(sync.delta_percent, 0.0);  // 0 -> 0

  ASSERT_EQ(c.ops.size(), 1u);
  EXPECT_EQ(c.ops[0].presence, Presence::kOnlyA);
  EXPECT_EQ(c.ops[0].name, "only_a");  // resolved from A's pool
}

TEST(CompareTest, EmptyAnalysesCompareToZeros) {
  const HandRun a, b;
  const Comparison c = Compare(a.As(""), b.As(""));
  EXPECT_EQ(c.a.steps, 0u);
  EXPECT_EQ(c.a.first_full_step, -1);
  EXPECT_EQ(c.summary.size(), 3u + kTimeCategoryCount + kIdleCauseCount);
  for (const SummaryRow& r : c.summary) EXPECT_EQ(r.delta_percent, 0.0) << r.label;
  EXPECT_TRUE(c.ops.empty());
}

TEST(FirstFullStepTest, CutOnlyAtTheTraceEdges) {
  const std::vector<TimeNs> start = {100, 200, 300, 400};
  const std::vector<DurNs> dur = {100, 100, 100, 100};
  // Something recorded before the first step: it is whole.
  EXPECT_EQ(FirstFullStep(start, dur, TimeRange{50, 600}), 0);
  // The capture starts with the first step: it may have begun earlier.
  EXPECT_EQ(FirstFullStep(start, dur, TimeRange{100, 600}), 1);
  EXPECT_TRUE(IsCutStep(start, dur, 3, TimeRange{50, 500}));  // ends at the trace's end
  EXPECT_FALSE(IsCutStep(start, dur, 3, TimeRange{50, 501}));
  EXPECT_FALSE(IsCutStep(start, dur, 1, TimeRange{200, 300}));  // interior steps never are
  // One step touching both edges: all cut, anchor on it anyway.
  EXPECT_EQ(FirstFullStep(std::vector<TimeNs>{0}, std::vector<DurNs>{10}, TimeRange{0, 10}), 0);
  EXPECT_EQ(FirstFullStep({}, {}, TimeRange{0, 10}), -1);
}

TEST(FirstFullStepTest, WithoutASpanAShortFirstStepIsCut) {
  const std::vector<TimeNs> start = {0, 40, 140, 240};
  // Median of {40, 100, 100, 100} is 100; 40 < 50.
  EXPECT_EQ(FirstFullStep(start, std::vector<DurNs>{40, 100, 100, 100}, TimeRange{}), 1);
  EXPECT_EQ(FirstFullStep(start, std::vector<DurNs>{50, 100, 100, 100}, TimeRange{}), 0);
  EXPECT_TRUE(IsCutStep(start, std::vector<DurNs>{100, 100, 100, 10}, 3, TimeRange{}));
}

}  // namespace
}  // namespace stepline::analysis
