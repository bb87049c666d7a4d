// Memory panel logic: the allocation table's pool and op filter,
// sort by every column with open ends, and the CSV export rows; plus a
// headless draw of the panel on a demo trace with memory events.
#include "ui/memory/memory_panel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "demo/demo_generator.h"
#include "model/memory_table.h"
#include "tests/support/headless_imgui.h"
#include "ui/memory/memory_series.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/track_layout.h"

namespace stepline::ui {
namespace {

analysis::Report TwoPools() {
  analysis::Report r;
  r.memory.resize(2);
  r.memory[0].name = "GPU 0";
  r.memory[1].name = "CPU";
  // pool, op, addr, bytes, alloc, free
  r.allocations = {{0, "aten::empty", 1, 300, 10, 50},
                   {0, "aten::add", 2, 100, kAllocBeforeCapture, 40},
                   {1, "aten::empty", 3, 8, 5, 6},
                   {0, "aten::mm", 4, 200, 20, kStillOpen},
                   {0, "Aten::Empty_strided", 5, 50, 30, 35}};
  return r;
}

TEST(MemoryPanelTest, FiltersByPoolAndOpNameCaseInsensitive) {
  const analysis::Report r = TwoPools();
  EXPECT_EQ(FilterAllocations(r, 0, ""), (std::vector<uint32_t>{0, 1, 3, 4}));
  EXPECT_EQ(FilterAllocations(r, 1, ""), (std::vector<uint32_t>{2}));
  EXPECT_EQ(FilterAllocations(r, 0, "EMPTY"), (std::vector<uint32_t>{0, 4}));
  EXPECT_TRUE(FilterAllocations(r, 1, "mm").empty());
}

TEST(MemoryPanelTest, SortsEveryColumnWithOpenEndsAtTheExtremes) {
  const analysis::Report r = TwoPools();
  std::vector<uint32_t> rows = FilterAllocations(r, 0, "");
  SortAllocations(r, AllocationColumn::kBytes, false, &rows);
  EXPECT_EQ(rows, (std::vector<uint32_t>{0, 3, 1, 4}));
  SortAllocations(r, AllocationColumn::kAllocated, true, &rows);
  EXPECT_EQ(rows.front(), 1u);  // allocated before the capture: earliest
  SortAllocations(r, AllocationColumn::kFreed, false, &rows);
  EXPECT_EQ(rows.front(), 3u);  // still open: latest
  SortAllocations(r, AllocationColumn::kLifetime, false, &rows);
  // Open ones (1 and 3) are longest, tied, then by report order; then 40 ns, then 5 ns.
  EXPECT_EQ(rows, (std::vector<uint32_t>{1, 3, 0, 4}));
  SortAllocations(r, AllocationColumn::kOp, true, &rows);
  EXPECT_EQ(r.allocations[rows.front()].op, "Aten::Empty_strided");  // byte order: capitals first
}

TEST(MemoryPanelTest, ExportLeavesOpenEndsEmpty) {
  const analysis::Report r = TwoPools();
  const TextTable t = AllocationsTable(r, {1, 3, 0});
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.header,
            (std::vector<std::string>{"device", "op", "addr", "bytes", "alloc_ns", "free_ns", "lifetime_ns"}));
  EXPECT_EQ(t.rows[0], (std::vector<std::string>{"GPU 0", "aten::add", "2", "100", "", "40", ""}));
  EXPECT_EQ(t.rows[1], (std::vector<std::string>{"GPU 0", "aten::mm", "4", "200", "20", "", ""}));
  EXPECT_EQ(t.rows[2], (std::vector<std::string>{"GPU 0", "aten::empty", "1", "300", "10", "50", "40"}));
  EXPECT_EQ(FormatMemory(2'088'508'416), "2.1 GB");
}

TEST(MemoryPanelTest, DrawsADemoTraceHeadless) {
  demo::DemoOptions options;
  options.scenario = "memory-leak";
  options.style = demo::DemoStyle::kPyTorch;
  options.steps = 3;
  auto trace = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(trace.ok());
  ViewState state;
  state.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
  ASSERT_EQ(state.data->analysis.report.memory.size(), 1u);
  stepline::testing::HeadlessImGui imgui(ImVec2(1200, 500));
  MemoryPanel panel;
  std::vector<ExportRequest> exports;
  for (int frame = 0; frame < 2; ++frame) {
    ImGui::NewFrame();
    ImGui::Begin("memory");
    panel.Draw(state);
    panel.MenuItems(state, &exports);  // nothing is clicked: nothing is requested
    ImGui::End();
    ImGui::EndFrame();
  }
  EXPECT_TRUE(exports.empty());
}

// Samples at 0, 10, 20, 30 ns with levels 5, 50, 7, 9 over a 4-pixel view of
// [0, 40): each pixel covers 10 ns and holds its highest sample.
TEST(MemorySeriesTest, StepColumnsHoldTheHighestLevelPerPixel) {
  const std::vector<TimeNs> ts = {0, 10, 12, 30};
  const std::vector<double> v = {5, 50, 7, 9};
  const RangeArgMax<double> max(v);
  Viewport vp;
  vp.visible = {0, 40};
  vp.width_px = 4;
  std::vector<float> cols;
  BuildStepColumns(ts, {}, v, max, vp, 4, &cols);
  ASSERT_EQ(cols.size(), 4u);
  EXPECT_EQ(cols[0], 5.f);
  EXPECT_EQ(cols[1], 50.f);  // 50 and 7 start in pixel 1: the higher one
  EXPECT_EQ(cols[2], 7.f);   // held
  EXPECT_EQ(cols[3], 9.f);
  EXPECT_EQ(SeriesValueAt(ts, v, 11), 50);
  EXPECT_TRUE(std::isnan(SeriesValueAt(ts, v, -1)));
}

TEST(MemorySeriesTest, DeviceGroupGetsAMemoryRowAfterItsStreams) {
  demo::DemoOptions options;
  options.scenario = "baseline";
  options.style = demo::DemoStyle::kPyTorch;
  options.steps = 2;
  auto trace = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(trace.ok());
  const TimelineData data(std::make_shared<const Trace>(std::move(trace).value()));
  ASSERT_EQ(data.memory.size(), 1u);
  EXPECT_EQ(data.memory[0].device_id, 0);
  EXPECT_FALSE(data.memory[0].reserved.empty());
  EXPECT_GE(data.memory[0].top, data.memory[0].peak);
  // One memory analysis (TraceAnalysis::memory): the Memory row marks the
  // peak the Memory panel and `report` name.
  const analysis::ReportMemory& reported = data.analysis.report.memory[0];
  EXPECT_EQ(data.memory[0].peak, static_cast<double>(reported.peak_allocated_bytes));
  EXPECT_EQ(data.memory[0].peak_ts, reported.peak_ts_ns);
  EXPECT_EQ(data.memory[0].top,
            static_cast<double>(std::max(reported.peak_allocated_bytes, reported.peak_reserved_bytes)));
  const std::vector<int32_t> devices = {data.memory[0].device_id};
  const TrackLayout layout =
      ComputeTrackLayout(*data.trace, data.depths, data.copies, {}, LayoutMetrics{}, devices);
  int memory_rows = 0;
  for (const LayoutRow& row : layout.rows) {
    if (row.kind != RowKind::kMemoryRow) continue;
    ++memory_rows;
    EXPECT_EQ(row.memory, 0);
    EXPECT_EQ(data.trace->processes().device_id(row.process), 0);
  }
  EXPECT_EQ(memory_rows, 1);
  // Without series, no Memory row.
  const TrackLayout plain = ComputeTrackLayout(*data.trace, data.depths, data.copies, {}, LayoutMetrics{});
  for (const LayoutRow& row : plain.rows) EXPECT_NE(row.kind, RowKind::kMemoryRow);
}

}  // namespace
}  // namespace stepline::ui
