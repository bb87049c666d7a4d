// CSV / TSV writing and the analysis export builders: quoting by RFC 4180,
// exact nanoseconds, rows in the order the panel shows them.
#include "ui/table_export.h"

#include <gtest/gtest.h>

#include "ui/analysis_tables.h"

namespace stepline::ui {
namespace {

TEST(TableExportTest, CsvQuotesOnlyWhatNeedsIt) {
  TextTable t;
  t.header = {"name", "total_ns"};
  t.rows = {{"plain", "1"}, {"a,b", "2"}, {"say \"hi\"", "3"}, {"two\nlines", "4"}, {"cr\rhere", "5"}, {"", "6"}};
  EXPECT_EQ(ToCsv(t),
            "name,total_ns\n"
            "plain,1\n"
            "\"a,b\",2\n"
            "\"say \"\"hi\"\"\",3\n"
            "\"two\nlines\",4\n"
            "\"cr\rhere\",5\n"
            ",6\n");
}

TEST(TableExportTest, TsvFlattensTabsAndLineBreaks) {
  TextTable t;
  t.header = {"a", "b"};
  t.rows = {{"x\ty", "1,2"}, {"line\none", "\"q\""}};
  // Commas and quotes need nothing in TSV; a tab or line break would split a cell.
  EXPECT_EQ(ToTsv(t), "a\tb\nx y\t1,2\nline one\t\"q\"\n");
}

TEST(TableExportTest, NumberCellsAreExact) {
  EXPECT_EQ(IntCell(9'007'199'254'740'993), "9007199254740993");  // beyond double precision
  EXPECT_EQ(IntCell(-5), "-5");
  EXPECT_EQ(FixedCell(12.3456, 3), "12.346");
}

analysis::Report TwoOps() {
  analysis::Report r;
  analysis::ReportOp a;
  a.name = "MatMul, fused";
  a.kind = analysis::OpKind::kKernel;
  a.count = 3;
  a.total_ns = 1'234'567'891'011;
  a.self_ns = 1'000;
  a.avg_ns = 411'522'630'337;
  a.min_ns = 7;
  a.max_ns = 999'999'999'999;
  a.percent = 75.5;
  a.cumulative_percent = 75.5;
  analysis::ReportOp b;
  b.name = "aten::add";
  b.kind = analysis::OpKind::kHostOp;
  b.count = 1;
  b.total_ns = 10;
  r.ops = {a, b};
  return r;
}

TEST(TableExportTest, OpsTableFollowsTheGivenRowOrderWithExactNs) {
  const analysis::Report r = TwoOps();
  const TextTable t = OpsTable(r, {1, 0});
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.header[0], "name");
  EXPECT_EQ(t.rows[0][0], "aten::add");
  EXPECT_EQ(t.rows[0][1], "host_op");
  EXPECT_EQ(t.rows[1][1], "kernel");
  EXPECT_EQ(t.rows[1][3], "1234567891011");  // total_ns
  EXPECT_EQ(t.rows[1][7], "999999999999");   // max_ns
  const std::string csv = ToCsv(t);
  EXPECT_NE(csv.find("\"MatMul, fused\""), std::string::npos) << csv;
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "name,kind,count,total_ns,self_ns,avg_ns,min_ns,max_ns,percent,cumulative_percent,flops,achieved_tflops,"
            "arithmetic_intensity,bound");  // report --csv's
  EXPECT_EQ(t.rows[1][10], "");  // FLOPs unknown: empty, never 0
}

TEST(TableExportTest, KernelsTableLeavesUnknownsEmpty) {
  analysis::Report r;
  analysis::ReportKernel k;
  k.name = "gemm";
  k.count = 2;
  k.total_ns = 50;
  k.grid = {128, 1, 1};
  r.kernels = {k};
  const TextTable t = KernelsTable(r, {0});
  ASSERT_EQ(t.rows.size(), 1u);
  ASSERT_EQ(t.rows[0].size(), t.header.size());
  EXPECT_EQ(t.rows[0][1], "128");  // grid_x
  EXPECT_EQ(t.rows[0][3], "1");    // grid_z
  EXPECT_EQ(t.rows[0][4], "");     // block unknown
  EXPECT_EQ(t.rows[0][7], "");     // registers unknown (-1)
  EXPECT_EQ(t.rows[0][9], "");     // occupancy unknown
}

TEST(TableExportTest, StepsTableHasOneColumnPerCategory) {
  analysis::Report r;
  analysis::ReportStep s;
  s.name = "ProfilerStep#7";
  s.start_ns = 100;
  s.dur_ns = 30;
  s.breakdown[0] = 20;
  s.breakdown[6] = 10;
  r.steps = {s};
  const TextTable t = StepsTable(r);
  ASSERT_EQ(t.header.size(), 3u + 12u + 3u);  // then flops, mfu_percent, samples_per_s
  EXPECT_EQ(t.header[3], "compute_ns");
  EXPECT_EQ(t.header[13], "idle_graph_ns");
  EXPECT_EQ(t.header[15], "flops");
  EXPECT_EQ(t.header[9], "idle_input_ns");
  EXPECT_EQ(t.rows[0][0], "ProfilerStep#7");
  EXPECT_EQ(t.rows[0][3], "20");
  EXPECT_EQ(t.rows[0][9], "10");
  EXPECT_EQ(t.rows[0][4], "0");
}

// The Selection tab's aggregate of a time range: rows in the shown order,
// exact ns, names quoted where CSV needs it, and the average from the total.
TEST(TableExportTest, RangeTableFollowsTheShownOrder) {
  Trace trace;
  const StringId add = trace.mutable_strings().Intern("aten::add");
  const StringId mm = trace.mutable_strings().Intern("MatMul, \"fused\"");
  const std::vector<analysis::RangeAggregateRow> rows = {{add, 3, 300'000'000'001, 100}, {mm, 2, 7, 7}};
  const TextTable t = RangeTable(trace, rows, {1, 0});
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"MatMul, \"fused\"", "2", "7", "7", "3"}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"aten::add", "3", "300000000001", "100", "100000000000"}));
  EXPECT_EQ(ToCsv(t),
            "name,count,total_ns,self_ns,avg_ns\n"
            "\"MatMul, \"\"fused\"\"\",2,7,7,3\n"
            "aten::add,3,300000000001,100,100000000000\n");
}

}  // namespace
}  // namespace stepline::ui
