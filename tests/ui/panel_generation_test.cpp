// Panel caches are keyed by TimelineData::generation, not an address: a second
// trace built at the very address of a freed first one (placement new into the
// same storage) still gets its own rows in the Op stats, GPU kernels and Idle
// gaps tables, and the Memory panel's allocation table.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <new>
#include <numeric>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/idle_gaps_panel.h"
#include "demo/demo_generator.h"
#include "ui/kernel_panel.h"
#include "ui/memory/memory_panel.h"
#include "ui/op_stats_panel.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

// `kernels` kernels named k0, k1, ... with a gap before each.
std::shared_ptr<const Trace> MakeTrace(int kernels) {
  SyntheticTrace b;
  b.Thread("main").Slice("ProfilerStep#1", Us(0), Us(100 * kernels + 100));
  for (int i = 0; i < kernels; ++i) {
    b.Kernel(0, Us(50 + 100 * i), Us(30), "k" + std::to_string(i)).LaunchedFrom("main", Us(40 + 100 * i));
  }
  return std::make_shared<const Trace>(b.Build());
}

struct Panels {
  OpStatsPanel ops;
  KernelPanel kernels;
  IdleGapsPanel gaps;
  void Draw(ViewState& state) {
    ImGui::NewFrame();
    ImGui::Begin("panels");
    ops.Draw(state);
    kernels.Draw(state);
    gaps.Draw(state);
    ImGui::End();
    ImGui::Render();
  }
};

TEST(PanelGenerationTest, ASecondTraceAtTheSameAddressGetsItsOwnRows) {
  stepline::testing::HeadlessImGui imgui(ImVec2(1600, 1200));
  alignas(TimelineData) unsigned char storage[sizeof(TimelineData)];
  auto at = [&](std::shared_ptr<const Trace> trace) {
    TimelineData* d = new (storage) TimelineData(std::move(trace));
    return std::shared_ptr<const TimelineData>(d, [](const TimelineData*) {});  // storage outlives it
  };
  Panels panels;
  ViewState state;
  state.data = at(MakeTrace(12));
  const uint64_t first_generation = state.data->generation;
  panels.Draw(state);
  EXPECT_EQ(panels.kernels.rows().size(), 12u);
  const size_t first_ops = panels.ops.rows().size(), first_gaps = panels.gaps.rows().size();
  ASSERT_GT(first_gaps, 3u);

  const TimelineData* address = state.data.get();
  state.data.reset();
  std::destroy_at(reinterpret_cast<TimelineData*>(storage));
  state.data = at(MakeTrace(3));
  ASSERT_EQ(state.data.get(), address);  // the same address, a different trace
  EXPECT_NE(state.data->generation, first_generation);
  panels.Draw(state);
  const AnalysisData& a = state.data->analysis;
  EXPECT_EQ(panels.kernels.rows().size(), a.report.kernels.size());
  EXPECT_EQ(panels.kernels.rows().size(), 3u);
  EXPECT_LT(panels.ops.rows().size(), first_ops);
  for (uint32_t row : panels.ops.rows()) EXPECT_LT(row, a.report.ops.size());
  for (uint32_t row : panels.gaps.rows()) EXPECT_LT(row, a.gaps.size());
  EXPECT_LT(panels.gaps.rows().size(), first_gaps);
  std::destroy_at(reinterpret_cast<TimelineData*>(storage));
}

// A demo trace of `steps` steps with memory events.
std::shared_ptr<const Trace> MemoryDemo(int steps) {
  demo::DemoOptions options;
  options.scenario = "memory-leak";
  options.style = demo::DemoStyle::kPyTorch;
  options.steps = steps;
  auto trace = demo::GenerateDemoTrace(options);
  EXPECT_TRUE(trace.ok());
  return std::make_shared<const Trace>(std::move(trace).value());
}

void DrawMemory(MemoryPanel& panel, ViewState& state) {
  ImGui::NewFrame();
  ImGui::Begin("memory");
  panel.Draw(state);
  ImGui::End();
  ImGui::Render();
}

TEST(PanelGenerationTest, MemoryPanelRebuildsItsAllocationRowsForATraceAtTheSameAddress) {
  stepline::testing::HeadlessImGui imgui(ImVec2(1600, 1200));
  alignas(TimelineData) unsigned char storage[sizeof(TimelineData)];
  auto at = [&](std::shared_ptr<const Trace> trace) {
    TimelineData* d = new (storage) TimelineData(std::move(trace));
    return std::shared_ptr<const TimelineData>(d, [](const TimelineData*) {});  // storage outlives it
  };
  MemoryPanel panel;
  ViewState state;
  state.data = at(MemoryDemo(4));
  DrawMemory(panel, state);
  const size_t first_rows = panel.rows().size();
  ASSERT_EQ(first_rows, state.data->analysis.report.allocations.size());

  const TimelineData* address = state.data.get();
  state.data.reset();
  std::destroy_at(reinterpret_cast<TimelineData*>(storage));
  state.data = at(MemoryDemo(2));
  ASSERT_EQ(state.data.get(), address);  // the same address, a different trace
  DrawMemory(panel, state);
  const size_t second_allocations = state.data->analysis.report.allocations.size();
  ASSERT_LT(second_allocations, first_rows);  // fewer steps, fewer allocations
  EXPECT_EQ(panel.rows().size(), second_allocations);
  for (uint32_t row : panel.rows()) EXPECT_LT(row, second_allocations);
  std::destroy_at(reinterpret_cast<TimelineData*>(storage));
}

}  // namespace
}  // namespace stepline::ui
