// Op and kernel table logic: text / side filters, sort by every column (both
// directions, total order), top-10 by self time, and the timeline highlight
// of a selected op's occurrences.
#include "ui/op_stats_panel.h"

#include <gtest/gtest.h>

#include <memory>

#include "model/ascii_case.h"
#include "tests/support/synthetic_trace.h"
#include "ui/kernel_panel.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

std::shared_ptr<const TimelineData> OpStatsData() {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", Us(0), Us(1000)).Slice("forward", Us(10), Us(300));
  for (int i = 0; i < 3; ++i) {
    b.Kernel(7, Us(20 + i * 100), Us(40), "gemm").LaunchedFrom("main", Us(15 + i * 100));
    b.Kernel(7, Us(70 + i * 100), Us(10), "relu").LaunchedFrom("main", Us(60 + i * 100));
  }
  b.Kernel(7, Us(500), Us(200), "Softmax").LaunchedFrom("main", Us(490));
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(b.Build()));
}

int FindOp(const analysis::Report& r, std::string_view name) {
  for (size_t i = 0; i < r.ops.size(); ++i) {
    if (r.ops[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

TEST(OpStatsPanelTest, FiltersByNameCaseInsensitiveAndBySide) {
  auto data = OpStatsData();
  const analysis::Report& r = data->analysis.report;
  const auto gemm = FilterOps(r, "GEMM", OpSide::kAll);
  ASSERT_EQ(gemm.size(), 1u);
  EXPECT_EQ(r.ops[gemm[0]].name, "gemm");
  for (uint32_t i : FilterOps(r, "", OpSide::kDevice)) EXPECT_TRUE(analysis::IsDeviceOpKind(r.ops[i].kind));
  for (uint32_t i : FilterOps(r, "", OpSide::kHost)) EXPECT_FALSE(analysis::IsDeviceOpKind(r.ops[i].kind));
  EXPECT_EQ(FilterOps(r, "", OpSide::kHost).size() + FilterOps(r, "", OpSide::kDevice).size(), r.ops.size());
  EXPECT_TRUE(FilterOps(r, "no such op", OpSide::kAll).empty());
  EXPECT_TRUE(ContainsIgnoringCase("cudaLaunchKernel", "LAUNCH"));
  EXPECT_FALSE(ContainsIgnoringCase("relu", "relux"));
}

TEST(OpStatsPanelTest, SortsByEveryColumnAndReversesExactly) {
  auto data = OpStatsData();
  const analysis::Report& r = data->analysis.report;
  std::vector<uint32_t> rows = FilterOps(r, "", OpSide::kAll);
  ASSERT_GE(rows.size(), 5u);
  // The column's value as a double (names by rank), to check order generically.
  auto key = [&](uint32_t i, int c) -> double {
    const analysis::ReportOp& op = r.ops[i];
    switch (static_cast<OpColumn>(c)) {
      case OpColumn::kSide: return analysis::IsDeviceOpKind(op.kind);
      case OpColumn::kKind: return static_cast<double>(op.kind);
      case OpColumn::kName: {
        double rank = 0;
        for (const auto& o : r.ops) rank += o.name < op.name;
        return rank;
      }
      case OpColumn::kCount: return static_cast<double>(op.count);
      case OpColumn::kTotal: return static_cast<double>(op.total_ns);
      case OpColumn::kAvg: return static_cast<double>(op.avg_ns);
      case OpColumn::kMin: return static_cast<double>(op.min_ns);
      case OpColumn::kMax: return static_cast<double>(op.max_ns);
      case OpColumn::kSelf: return static_cast<double>(op.self_ns);
      case OpColumn::kPercent: return op.percent;
      case OpColumn::kCumulative: return op.cumulative_percent;
      case OpColumn::kFlops: return op.flops;
      case OpColumn::kTflops: return op.achieved_tflops;
      case OpColumn::kIntensity: return op.intensity;
      case OpColumn::kBound: return static_cast<double>(op.bound);
    }
    return 0;
  };
  for (int c = 0; c < kOpColumnCount; ++c) {
    std::vector<uint32_t> up = rows, down = rows;
    SortOps(r, static_cast<OpColumn>(c), true, &up);
    SortOps(r, static_cast<OpColumn>(c), false, &down);
    EXPECT_TRUE(std::is_permutation(up.begin(), up.end(), rows.begin())) << c;
    for (size_t i = 1; i < up.size(); ++i) {
      EXPECT_LE(key(up[i - 1], c), key(up[i], c)) << "column " << c;
      EXPECT_GE(key(down[i - 1], c), key(down[i], c)) << "column " << c;
      if (key(up[i - 1], c) == key(up[i], c)) {
        EXPECT_LT(up[i - 1], up[i]) << "ties keep report order";
      }
    }
  }
  SortOps(r, OpColumn::kCount, false, &rows);
  EXPECT_EQ(r.ops[rows[0]].count, 7u);  // cudaLaunchKernel, one per kernel
  SortOps(r, OpColumn::kName, true, &rows);
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_LE(r.ops[rows[i - 1]].name, r.ops[rows[i]].name);
  SortOps(r, OpColumn::kMax, false, &rows);
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_GE(r.ops[rows[i - 1]].max_ns, r.ops[rows[i]].max_ns);
}

TEST(OpStatsPanelTest, TopOpsBySelfTime) {
  auto data = OpStatsData();
  const analysis::Report& r = data->analysis.report;
  const auto top = TopOpsBySelf(r, 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_GE(r.ops[top[0]].self_ns, r.ops[top[1]].self_ns);
  for (const auto& op : r.ops) EXPECT_LE(op.self_ns, r.ops[top[0]].self_ns);
  EXPECT_EQ(TopOpsBySelf(r, 100).size(), r.ops.size());
}

TEST(OpStatsPanelTest, HighlightFindsEveryOccurrenceOnItsSide) {
  ViewState state;
  state.data = OpStatsData();
  const AnalysisData& a = state.data->analysis;
  const int gemm = FindOp(a.report, "gemm");
  ASSERT_GE(gemm, 0);
  state.HighlightOp(a.ops.ops[gemm].name, true);
  EXPECT_EQ(state.links.op_occurrences.size(), 3u);
  EXPECT_TRUE(std::is_sorted(state.links.op_occurrences.begin(), state.links.op_occurrences.end()));
  state.HighlightOp(a.ops.ops[gemm].name, false);  // no host slice is named gemm
  EXPECT_TRUE(state.links.op_occurrences.empty());
  state.HighlightOp(StringId::None(), false);
  EXPECT_TRUE(state.links.highlighted_op.is_none());
}

TEST(KernelPanelTest, FilterSortAndFormat) {
  auto data = OpStatsData();
  const analysis::Report& r = data->analysis.report;
  ASSERT_EQ(r.kernels.size(), 3u);
  EXPECT_EQ(FilterKernels(r, "RELU").size(), 1u);
  EXPECT_EQ(FilterKernels(r, "forward").size(), 2u);  // gemm and relu are launched inside forward
  std::vector<uint32_t> rows = FilterKernels(r, "");
  SortKernels(r, KernelColumn::kCount, false, &rows);
  EXPECT_EQ(r.kernels[rows.back()].name, "Softmax");
  SortKernels(r, KernelColumn::kMax, false, &rows);
  EXPECT_EQ(r.kernels[rows.front()].name, "Softmax");
  SortKernels(r, KernelColumn::kName, true, &rows);
  EXPECT_EQ(r.kernels[rows.front()].name, "Softmax");  // 'S' < 'g' < 'r'
  EXPECT_EQ(FormatDim3({128, 1, 1}), "128x1x1");
  EXPECT_EQ(FormatDim3({0, 0, 0}), "-");
}

}  // namespace
}  // namespace stepline::ui
