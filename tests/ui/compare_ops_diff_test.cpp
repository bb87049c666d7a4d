// Compare ops diff table logic: the text filter, sorting by every column in
// both directions (a total order; |delta| for the delta column), the
// only-A / only-B marks, and highlighting a row's occurrences in each run,
// through normalized names when the comparison merged them.
#include "ui/compare/ops_diff_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <set>

#include "tests/support/synthetic_trace.h"
#include "ui/compare/op_diff_highlight.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using analysis::OpDiffRow;
using analysis::OpKind;
using analysis::Presence;
using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

OpDiffRow Row(std::string name, OpKind kind, uint64_t ac, uint64_t bc, DurNs at, DurNs bt, Presence p) {
  OpDiffRow r;
  r.name = std::move(name);
  r.kind = kind;
  r.a_count = ac;
  r.b_count = bc;
  r.a_total_ns = at;
  r.b_total_ns = bt;
  r.delta_ns = bt - at;
  r.delta_per_step_ns = static_cast<double>(bt - at) / 4;
  r.presence = p;
  return r;
}

std::vector<OpDiffRow> Rows() {
  return {
      Row("aten::add", OpKind::kHostOp, 10, 10, 500, 800, Presence::kBoth),      // +300
      Row("gemm", OpKind::kKernel, 4, 4, 9'000, 2'000, Presence::kBoth),         // -7000
      Row("Memcpy HtoD", OpKind::kMemcpy, 2, 0, 1'000, 0, Presence::kOnlyA),     // -1000
      Row("nccl_allreduce", OpKind::kKernel, 0, 3, 0, 4'000, Presence::kOnlyB),  // +4000
      Row("ATEN::mul", OpKind::kHostOp, 1, 2, 100, 100, Presence::kBoth),        // 0
  };
}

std::vector<uint32_t> All(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

TEST(CompareOpsDiffTest, FilterIsCaseInsensitiveSubstring) {
  const auto rows = Rows();
  EXPECT_EQ(FilterDiffRows(rows, "ATEN"), (std::vector<uint32_t>{0, 4}));
  EXPECT_EQ(FilterDiffRows(rows, "memcpy"), (std::vector<uint32_t>{2}));
  EXPECT_EQ(FilterDiffRows(rows, "").size(), rows.size());
  EXPECT_TRUE(FilterDiffRows(rows, "softmax").empty());
}

TEST(CompareOpsDiffTest, DeltaColumnSortsBySizeOfChange) {
  const auto rows = Rows();
  auto order = All(rows.size());
  SortDiffRows(rows, DiffColumn::kDelta, /*ascending=*/false, &order);
  // |delta|: gemm 7000, nccl 4000, memcpy 1000, add 300, mul 0.
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 3, 2, 0, 4}));
  // Per step is signed: largest regression first, largest improvement last.
  SortDiffRows(rows, DiffColumn::kDeltaPerStep, false, &order);
  EXPECT_EQ(order, (std::vector<uint32_t>{3, 0, 4, 2, 1}));
}

TEST(CompareOpsDiffTest, EveryColumnSortsBothWaysAsATotalOrder) {
  auto rows = Rows();
  rows.push_back(rows[0]);  // an exact duplicate: ties must fall back to index order
  for (int c = 0; c < kDiffColumnCount; ++c) {
    for (bool ascending : {true, false}) {
      auto order = All(rows.size());
      std::reverse(order.begin(), order.end());  // the input order must not matter
      SortDiffRows(rows, static_cast<DiffColumn>(c), ascending, &order);
      auto again = All(rows.size());
      SortDiffRows(rows, static_cast<DiffColumn>(c), ascending, &again);
      EXPECT_EQ(order, again) << "column " << c;
      const auto pos0 = std::find(order.begin(), order.end(), 0u) - order.begin();
      const auto pos5 = std::find(order.begin(), order.end(), 5u) - order.begin();
      EXPECT_LT(pos0, pos5) << "column " << c << ": equal rows keep index order";
    }
  }
  auto by_name = All(rows.size() - 1);
  SortDiffRows(rows, DiffColumn::kName, true, &by_name);
  EXPECT_EQ(rows[by_name.front()].name, "ATEN::mul");  // byte order: upper case first
  auto by_b_count = All(rows.size() - 1);
  SortDiffRows(rows, DiffColumn::kBCount, false, &by_b_count);
  EXPECT_EQ(rows[by_b_count.front()].b_count, 10u);
  EXPECT_EQ(rows[by_b_count.back()].b_count, 0u);
}

TEST(CompareOpsDiffTest, PresenceMarks) {
  EXPECT_STREQ(PresenceLabel(Presence::kOnlyA), "only A");
  EXPECT_STREQ(PresenceLabel(Presence::kOnlyB), "only B");
  EXPECT_STREQ(PresenceLabel(Presence::kBoth), "");
  auto order = All(Rows().size());
  SortDiffRows(Rows(), DiffColumn::kPresence, true, &order);
  EXPECT_EQ(Rows()[order.back()].presence, Presence::kOnlyB);
}

// Run A names its adds aten::add_1 / aten::add_2 (two raw names), run B
// aten::add_7; both have a kernel "gemm" and a host op "gemm" that must not
// be highlighted for the kernel row.
std::shared_ptr<const TimelineData> RunA() {
  SyntheticTrace t;
  t.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1'000));
  t.Thread("main").Slice("aten::add_1", Us(10), Us(20)).Slice("aten::add_2", Us(40), Us(20));
  t.Thread("main").Slice("aten::add_1", Us(70), Us(20)).Slice("gemm", Us(100), Us(20));
  t.Kernel(7, Us(200), Us(100), "gemm").Kernel(7, Us(400), Us(100), "gemm");
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

std::shared_ptr<const TimelineData> RunB() {
  SyntheticTrace t;
  t.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1'000)).Slice("aten::add_7", Us(10), Us(20));
  t.Kernel(7, Us(200), Us(100), "gemm");
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

// Slices of `trace` named one of `names`, counted by hand.
size_t CountNamed(const Trace& trace, const std::set<std::string>& names, bool on_device) {
  size_t n = 0;
  for (uint32_t i = 0; i < trace.slices().size(); ++i) {
    const bool device = trace.slices().gpu_kind()[i] != GpuKind::kNone;
    if (device == on_device && names.count(std::string(trace.str(trace.slices().name()[i])))) ++n;
  }
  return n;
}

// The comparison's row for (name, kind); fails the test when there is none.
const analysis::OpDiffRow& RowOf(const analysis::Comparison& c, std::string_view name, OpKind kind) {
  for (const analysis::OpDiffRow& r : c.ops) {
    if (r.name == name && r.kind == kind) return r;
  }
  ADD_FAILURE() << "no ops-diff row " << name;
  static const analysis::OpDiffRow kNone;
  return kNone;
}

analysis::Comparison CompareRuns(const TimelineData& a, const TimelineData& b, bool normalize) {
  analysis::CompareOptions options;
  options.normalize_names = normalize;
  return analysis::Compare({*a.trace, a.analysis, "a"}, {*b.trace, b.analysis, "b"}, options);
}

// The row carries each run's raw name ids (the highlight does not
// normalize names again to find them).
TEST(CompareOpsDiffTest, NormalizedRowHighlightsEveryRawNameInBothRuns) {
  auto a = RunA(), b = RunB();
  ASSERT_EQ(CountNamed(*a->trace, {"aten::add_1", "aten::add_2"}, false), 3u);
  const analysis::Comparison c = CompareRuns(*a, *b, /*normalize=*/true);
  const analysis::OpDiffRow& add = RowOf(c, "aten::add", OpKind::kHostOp);
  ASSERT_EQ(add.a_names.size(), 2u);
  std::set<std::string> raw_a;
  for (StringId id : add.a_names) raw_a.insert(std::string(a->trace->str(id)));
  EXPECT_EQ(raw_a, (std::set<std::string>{"aten::add_1", "aten::add_2"}));
  ASSERT_EQ(add.b_names.size(), 1u);
  EXPECT_EQ(b->trace->str(add.b_names[0]), "aten::add_7");
  EXPECT_EQ(add.merged_names, 3u);
  ViewState sa;
  sa.data = a;
  HighlightOpNames(sa, add.a_names, false);
  EXPECT_EQ(sa.links.op_occurrences.size(), 3u);
  EXPECT_TRUE(std::is_sorted(sa.links.op_occurrences.begin(), sa.links.op_occurrences.end()));
  for (uint32_t row : sa.links.op_occurrences) {
    EXPECT_EQ(a->trace->str(a->trace->slices().name()[row]).substr(0, 9), "aten::add");
  }
  ViewState sb;
  sb.data = b;
  HighlightOpNames(sb, add.b_names, false);
  EXPECT_EQ(sb.links.op_occurrences.size(), 1u);
  // Without normalizing, each raw name is its own one-sided row.
  const analysis::Comparison raw = CompareRuns(*a, *b, /*normalize=*/false);
  const analysis::OpDiffRow& add_2 = RowOf(raw, "aten::add_2", OpKind::kHostOp);
  ASSERT_EQ(add_2.a_names.size(), 1u);
  EXPECT_EQ(a->trace->str(add_2.a_names[0]), "aten::add_2");
  EXPECT_TRUE(add_2.b_names.empty());
}

TEST(CompareOpsDiffTest, KernelRowHighlightsOnlyDeviceSlices) {
  auto a = RunA(), b = RunB();
  const analysis::Comparison c = CompareRuns(*a, *b, /*normalize=*/true);
  const analysis::OpDiffRow& gemm = RowOf(c, "gemm", OpKind::kKernel);
  ASSERT_EQ(gemm.a_names.size(), 1u);
  ViewState sa;
  sa.data = a;
  HighlightOpNames(sa, gemm.a_names, /*on_device=*/true);
  EXPECT_EQ(sa.links.op_occurrences.size(), CountNamed(*a->trace, {"gemm"}, true));
  EXPECT_EQ(sa.links.op_occurrences.size(), 2u);
  HighlightOpNames(sa, {}, false);
  EXPECT_TRUE(sa.links.op_occurrences.empty());
  EXPECT_TRUE(sa.links.highlighted_op.is_none());
}

// Clicking a row once framed 1.44 s from -0.7 s for a 68 ms op at the
// trace's start: half the view before the trace. The frame stays inside the
// trace and holds the occurrence.
TEST(CompareOpsDiffTest, RevealFramesTheOccurrenceInsideTheTrace) {
  const TimeRange span{0, 2'000'000'000};
  const DurNs op = 68'000'000;
  TimeRange r = OpRevealRange(0, op, span);
  EXPECT_EQ(r.start_ns, 0);
  EXPECT_EQ(r.end_ns, 21 * op);
  r = OpRevealRange(1'000'000'000, op, span);  // mid-trace: a little before, most after
  EXPECT_LT(r.start_ns, 1'000'000'000);
  EXPECT_GE(r.end_ns, 1'000'000'000 + op);
  EXPECT_EQ(r.duration_ns(), 21 * op);
  r = OpRevealRange(span.end_ns - op, op, span);  // at the end: shifted back, still whole
  EXPECT_EQ(r.end_ns, span.end_ns);
  EXPECT_EQ(r.duration_ns(), 21 * op);
  r = OpRevealRange(0, op, TimeRange{0, op * 3});  // a trace shorter than the frame: the trace
  EXPECT_EQ(r.start_ns, 0);
  EXPECT_EQ(r.end_ns, op * 3);
}

}  // namespace
}  // namespace stepline::ui
