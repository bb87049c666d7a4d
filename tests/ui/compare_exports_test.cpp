// The compare view's tables as text (ops diff and summary, against rows
// written out by hand) and its caption.
#include "ui/compare/compare_exports.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "ui/caption.h"
#include "ui/compare/compare_chart_svg.h"

namespace stepline::ui {
namespace {

using analysis::OpDiffRow;
using analysis::OpKind;
using analysis::Presence;

analysis::Comparison ThreeOps() {
  analysis::Comparison c;
  OpDiffRow gemm;
  gemm.name = "void gemm";
  gemm.kind = OpKind::kKernel;
  gemm.a_count = 10;
  gemm.b_count = 12;
  gemm.a_total_ns = 1'000'000;
  gemm.b_total_ns = 1'500'000;
  gemm.delta_ns = 500'000;
  gemm.delta_per_step_ns = 12'345.25;
  OpDiffRow add;  // a comma and a quote: quoted in CSV, kept in TSV
  add.name = "aten::add(\"x\", y)";
  add.kind = OpKind::kHostOp;
  add.a_count = 3;
  add.a_total_ns = 7'000;
  add.delta_ns = -7'000;
  add.delta_per_step_ns = -700;
  add.presence = Presence::kOnlyA;
  OpDiffRow copy;
  copy.name = "Memcpy HtoD";
  copy.kind = OpKind::kMemcpy;
  copy.b_count = 1;
  copy.b_total_ns = 42;
  copy.delta_ns = 42;
  copy.delta_per_step_ns = 4.2;
  copy.presence = Presence::kOnlyB;
  c.ops = {gemm, add, copy};
  return c;
}

TEST(CompareExportsTest, OpsDiffCsvHasEveryColumnInExactNsInTheOrderShown) {
  const analysis::Comparison c = ThreeOps();
  // As the table would show them sorted by name, say: rows 1, 2, 0.
  const TextTable t = OpsDiffTextTable(c, {1, 2, 0});
  EXPECT_EQ(ToCsv(t),
            "in,kind,name,a_count,b_count,a_total_ns,b_total_ns,delta_ns,delta_per_step_ns\n"
            "only_a,host_op,\"aten::add(\"\"x\"\", y)\",3,0,7000,0,-7000,-700.0\n"
            "only_b,memcpy,Memcpy HtoD,0,1,0,42,42,4.2\n"
            "both,kernel,void gemm,10,12,1000000,1500000,500000,12345.2\n");
  EXPECT_EQ(ToTsv(t),
            "in\tkind\tname\ta_count\tb_count\ta_total_ns\tb_total_ns\tdelta_ns\tdelta_per_step_ns\n"
            "only_a\thost_op\taten::add(\"x\", y)\t3\t0\t7000\t0\t-7000\t-700.0\n"
            "only_b\tmemcpy\tMemcpy HtoD\t0\t1\t0\t42\t42\t4.2\n"
            "both\tkernel\tvoid gemm\t10\t12\t1000000\t1500000\t500000\t12345.2\n");
}

TEST(CompareExportsTest, OpsDiffOfAFilteredTableHasOnlyItsRows) {
  const TextTable t = OpsDiffTextTable(ThreeOps(), {0});
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.rows[0][2], "void gemm");
  EXPECT_TRUE(OpsDiffTextTable(ThreeOps(), {}).rows.empty());
}

TEST(CompareExportsTest, SummaryRowsInTheirUnitsWithEmptyPercentForNew) {
  analysis::CompareSide a, b;
  a.steps = 4;
  b.steps = 5;
  a.step_mean_ns = 2'000'000;
  b.step_mean_ns = 1'500'000;
  a.gpu_busy_percent = 40;
  b.gpu_busy_percent = 55.5;
  a.breakdown_mean[0] = 2'000'000;
  b.breakdown_mean[0] = 1'500'000;
  b.idle_by_cause_mean[0] = 1'000;  // A has none: "new"
  analysis::Comparison c;
  c.summary = analysis::BuildSummaryRows(a, b);
  const std::string csv = ToCsv(CompareSummaryTextTable(c));
  const std::string expected_start =
      "metric,unit,a,b,delta,delta_percent\n"
      "Steps,count,4,5,1,25.000\n"
      "Mean step time,ns,2000000,1500000,-500000,-25.000\n"
      "GPU busy (kernels),percent,40.000,55.500,15.500,38.750\n";
  EXPECT_EQ(csv.rfind(expected_start, 0), 0u) << csv;
  // Every row, as on screen and in `stepline diff`, also those with no time in either run.
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 + analysis::kTimeCategoryCount + analysis::kIdleCauseCount)
      << csv;
  EXPECT_NE(csv.find(" per step,ns,2000000,1500000,-500000,-25.000\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("GPU idle per step: "), std::string::npos) << csv;
  EXPECT_NE(csv.find(",ns,0,1000,1000,\n"), std::string::npos) << "new: no percentage\n" << csv;
}

TEST(CompareCaptionTest, NamesBothFilesTheAlignedStepsAndTheRangeFromTheStepStart) {
  analysis::Comparison c;
  c.a.step_names = {"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"};
  c.b.step_names = {"ProfilerStep#7", "ProfilerStep#8"};
  const TimeNs origin_a = 5'000'000;
  const std::string text = BuildCompareCaption("a.json.gz", "b.json.gz", c, 2, 1,
                                               TimeRange{origin_a - 50'000, origin_a + 1'200'000}, origin_a);
  EXPECT_EQ(text,
            "A: a.json.gz  vs  B: b.json.gz  |  aligned A step 2 (ProfilerStep#3), B step 1 (ProfilerStep#8)  |  "
            "view -50.00 µs - 1.200 ms from the aligned step starts (1.250 ms)  |  verdict no_change: too few full "
            "steps to judge (0 vs 0, need 3 each)");
}

TEST(CompareCaptionTest, RunsWithoutStepsAlignOnTheirTraceStarts) {
  analysis::Comparison c;
  const std::string text = BuildCompareCaption("", "b", c, -1, -1, TimeRange{100, 2'100}, 100);
  EXPECT_EQ(text,
            "A: (untitled)  vs  B: b  |  aligned A trace start, B trace start  |  view 0 ns - 2.000 µs from the "
            "trace starts (2.000 µs)  |  verdict no_change: too few full steps to judge (0 vs 0, need 3 each)");
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CompareChartSvgTest, OneSegmentPerStepAndCategoryOnOneScale) {
  analysis::Comparison c;
  // A: three 2 ms steps, all compute; B: two steps of 1 ms compute + 1 ms input idle.
  for (int i = 0; i < 3; ++i) {
    c.a.step_dur_ns.push_back(2'000'000);
    c.a.step_breakdown.push_back({});
    c.a.step_breakdown.back()[0] = 2'000'000;
  }
  for (int i = 0; i < 2; ++i) {
    c.b.step_dur_ns.push_back(2'000'000);
    c.b.step_breakdown.push_back({});
    c.b.step_breakdown.back()[0] = 1'000'000;
    c.b.step_breakdown.back()[analysis::kTimeCategoryCount - 1] = 1'000'000;
  }
  c.a.steps = 3;
  c.b.steps = 2;
  c.a.step_mean_ns = c.b.step_mean_ns = 2'000'000;
  c.a.breakdown_mean = c.a.step_breakdown[0];
  c.b.breakdown_mean = c.b.step_breakdown[0];
  CompareChartSvgOptions options;
  options.title = "A <a> vs B";
  const std::string svg = BuildCompareChartSvg(c, options);
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_NE(svg.find("A &lt;a&gt; vs B"), std::string::npos) << "escaped title";
  EXPECT_EQ(Count(svg, "class=\"seg-a\""), 3u);
  EXPECT_EQ(Count(svg, "class=\"seg-b\""), 4u);
  EXPECT_EQ(Count(svg, "class=\"mean-seg\""), 3u);
  EXPECT_EQ(Count(svg, "class=\"swatch\""), 2u);
}

TEST(CompareChartSvgTest, NoStepsIsStillADocument) {
  const std::string svg = BuildCompareChartSvg(analysis::Comparison{}, {});
  EXPECT_NE(svg.find("No steps in either run"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace stepline::ui
