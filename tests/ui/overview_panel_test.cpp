// Every analysis panel drawn headless for a few frames on generated demo
// traces (ImGui without a backend, as in main_view_smoke_test), plus the
// step chart's click-to-zoom link driven with the mouse.
#include "ui/overview_panel.h"

#include <gtest/gtest.h>
#include <imgui.h>

#include <memory>

#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"
#include "ui/main_view.h"

namespace stepline::ui {
namespace {

std::shared_ptr<const TimelineData> DemoData(const std::string& scenario, int steps) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = steps;
  auto trace = demo::GenerateDemoTrace(options);
  EXPECT_TRUE(trace.ok()) << scenario;
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
}

class AnalysisPanelsTest : public ::testing::Test {
 protected:
  void Frame() {
    ImGui::NewFrame();
    view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1920, 1080)};  // first: outlives the views
  ViewState state_;
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

TEST_F(AnalysisPanelsTest, EveryTabDrawsOnEveryDemoScenario) {
  for (const char* scenario : {"input-bound", "h2d-copy", "sync"}) {
    state_ = ViewState();
    state_.data = DemoData(scenario, 10);
    ASSERT_FALSE(state_.data->analysis.report.steps.empty()) << scenario;
    for (BottomTab tab : {BottomTab::kIdleGaps, BottomTab::kOpStats, BottomTab::kKernels, BottomTab::kSelection}) {
      state_.panels.bottom_tab = tab;
      state_.requests.bottom_tab = true;
      Frame();
      Frame();
      EXPECT_EQ(state_.panels.bottom_tab, tab) << scenario;
      EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 5000) << scenario;
    }
    // Links from the tables: a gap and an op, drawn with the overlay and arrow.
    state_.SelectGap(0);
    state_.HighlightOp(state_.data->analysis.ops.ops.front().name, false);
    Frame();
    Frame();
    EXPECT_EQ(state_.links.selected_gap, 0);
    state_.links.show_gap_overlay = false;
    state_.panels.show_overview = false;
    Frame();
  }
}

TEST_F(AnalysisPanelsTest, ClickingAStepBarFramesThatStep) {
  state_.data = DemoData("input-bound", 10);
  StepChart chart;
  const float width = 600, height = 200;
  auto draw = [&] {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(700, 400));
    ImGui::Begin("chart", nullptr, ImGuiWindowFlags_NoDecoration);
    chart.Draw(state_, width, height);
    ImGui::End();
    ImGui::Render();
  };
  draw();
  // The bars span from the axis to the mean bar; aim at the middle of step 3
  // (of 10), at mid height.
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const float x0 = pad + 56.f, x1 = pad + width - 34.f - 18.f - 4.f;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(x0 + (x1 - x0) * 3.5f / 10.f, 100.f);
  draw();
  io.MouseDown[0] = true;
  draw();
  io.MouseDown[0] = false;
  draw();
  EXPECT_EQ(state_.links.focused_step, 3);
  ASSERT_TRUE(state_.requests.fit.has_value());
  const analysis::ReportStep& step = state_.data->analysis.report.steps[3];
  EXPECT_LE(state_.requests.fit->start_ns, step.start_ns);
  EXPECT_GE(state_.requests.fit->end_ns, step.start_ns + step.dur_ns);
  EXPECT_LT(state_.requests.fit->duration_ns(), step.dur_ns * 11 / 10);
}

// The checkpoint demo's step chart with its outlier ticks (and the
// hover tooltip saying why), then as a histogram; both draw.
TEST_F(AnalysisPanelsTest, StepChartMarksOutliersAndHasAHistogramMode) {
  state_.data = DemoData("checkpoint", 8);
  ASSERT_EQ(state_.data->analysis.report.outlier_steps.size(), 2u);
  StepChart chart;
  auto draw = [&] {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(700, 400));
    ImGui::Begin("chart", nullptr, ImGuiWindowFlags_NoDecoration);
    chart.Draw(state_, 600, 200);
    ImGui::End();
    ImGui::Render();
    return ImGui::GetDrawData()->TotalVtxCount;
  };
  draw();
  const int bars = draw();
  // Over step 4 of 8 (an outlier): the tooltip adds its own window.
  const float pad = ImGui::GetStyle().WindowPadding.x;
  const float x0 = pad + 56.f, x1 = pad + 600.f - 34.f - 18.f - 4.f;
  ImGui::GetIO().MousePos = ImVec2(x0 + (x1 - x0) * 3.5f / 8.f, 120.f);
  draw();
  const int with_tooltip = draw();
  EXPECT_GT(with_tooltip, bars);
  ImGui::GetIO().MousePos = ImVec2(-1, -1);
  state_.panels.step_histogram = true;
  draw();
  const int histogram = draw();
  EXPECT_GT(histogram, 0);
  EXPECT_NE(histogram, bars);
}

TEST(OverviewPanelTest, TopCauseIsTheLargest) {
  analysis::CauseNs c{};
  EXPECT_EQ(TopCause(c), analysis::IdleCause::kOther);
  c[static_cast<size_t>(analysis::IdleCause::kSync)] = 5;
  c[static_cast<size_t>(analysis::IdleCause::kInput)] = 3;
  EXPECT_EQ(TopCause(c), analysis::IdleCause::kSync);
}

// Regression: the chart summed the gaps over the whole active span (25.44 s
// on demo input-bound, warm-up and teardown included) beside per-step
// figures that add up to about 23 s. With steps it now shows the primary
// device's time inside them, and says so. Inside steps, Input is
// the report's idle_input (no GPU op at all), never H2D copy time, which has
// its own row.
TEST(OverviewPanelTest, CauseChartUsesTheInStepFiguresWhenTheTraceHasSteps) {
  const auto data = DemoData("input-bound", 10);
  const analysis::Report& r = data->analysis.report;
  ASSERT_FALSE(r.steps.empty());
  const IdleByCause chart = ChartIdleByCause(r);
  EXPECT_TRUE(chart.in_steps);
  EXPECT_EQ(chart.title, "GPU no-kernel time inside steps: idle by cause, and copies (" + r.primary_device + ")");
  // The same figures as the step chart and `report`: the breakdown's idle
  // categories, and the copy categories in the copy rows.
  using analysis::IdleCause;
  using analysis::TimeCategory;
  EXPECT_EQ(At(chart.ns, IdleCause::kInput), At(r.breakdown_total, TimeCategory::kIdleInput));
  EXPECT_EQ(At(chart.ns, IdleCause::kMemcpyH2D), At(r.breakdown_total, TimeCategory::kMemcpyH2D));
  EXPECT_GT(At(chart.ns, IdleCause::kMemcpyH2D), 0);
  // Together they are the steps' no-kernel time, as before.
  DurNs no_kernel = 0, chart_total = 0;
  for (const analysis::ReportStep& step : r.steps) {
    for (int c = 0; c < analysis::kIdleCauseCount; ++c) no_kernel += step.idle_by_cause[c];
  }
  for (DurNs ns : chart.ns) chart_total += ns;
  EXPECT_EQ(chart_total, no_kernel);
  DurNs in_steps = 0, whole_span = 0, steps_ns = 0;
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    in_steps += chart.ns[c];
    whole_span += r.idle_by_cause[c];
  }
  for (const analysis::ReportStep& step : r.steps) steps_ns += step.dur_ns;
  EXPECT_LT(in_steps, whole_span);
  EXPECT_LE(in_steps, steps_ns);
  EXPECT_EQ(TopCause(chart.ns), analysis::IdleCause::kInput);
}

TEST(OverviewPanelTest, CauseChartFallsBackToTheWholeSpanWithoutSteps) {
  analysis::Report r;
  r.primary_device = "GPU 0";
  r.primary_device_index = 0;
  r.devices.emplace_back();
  r.idle_by_cause[static_cast<size_t>(analysis::IdleCause::kSync)] = 700;
  r.devices[0].idle_by_cause = r.idle_by_cause;
  const IdleByCause chart = ChartIdleByCause(r);
  EXPECT_FALSE(chart.in_steps);
  EXPECT_EQ(chart.ns, r.idle_by_cause);
  EXPECT_EQ(chart.title, "GPU idle time by cause, first to last kernel (GPU 0)");
}

}  // namespace
}  // namespace stepline::ui
