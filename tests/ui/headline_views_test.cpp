// What each view shows of the headline figures (model/analysis/headline.h):
// the whole window drawn headless at 1024x700, 1280x800 and 1920x1080, at
// scale 1 and 2, on every demo scenario and every shared real trace.
// Every figure a view draws passes through HeadlineFigureText, which the
// test records; each recorded figure
// must read as the Report (what `report --json` writes) says, formatted
// here on its own. The narrow summary line once computed its own GPU busy
// (59.5% against 54.9%): a view that formats a figure itself records
// nothing, and the test's "drew its figures" checks fail.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "demo/demo_efficiency.h"
#include "demo/demo_generator.h"
#include "demo/demo_scenarios.h"
#include "loaders/load.h"
#include "model/text_format.h"
#include "tests/support/headless_imgui.h"
#include "tests/support/test_traces.h"
#include "ui/body_layout.h"
#include "ui/headline_text.h"
#include "ui/main_view.h"
#include "ui/step_chart.h"

namespace stepline::ui {
namespace {

using analysis::HeadlineFigure;

std::string Fixed1Percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", v);
  return buf;
}

// The figure as the report's own fields give it, formatted independently
// of HeadlineText; "" when the figure has no single report value here.
std::string FromReport(const analysis::Report& r, HeadlineFigure f) {
  switch (f) {
    case HeadlineFigure::kSteps: return std::to_string(r.steps.size());
    case HeadlineFigure::kMeanStep:
      // Over the steps the stats sum (on a cut file those before the cut).
      if (r.step_stats.count == 0) return "-";
      return text::FormatDuration(r.step_stats.mean_ns) +
             (r.step_stats.count > 1 ? " \u00b1 " + text::FormatDuration(r.step_stats.sample_std_ns) : "");
    // report --json writes null without a device, else gpu_busy_percent.
    case HeadlineFigure::kDeviceBusy:
      return r.primary_device_index >= 0 && r.step_stats.total_ns > 0 ? Fixed1Percent(r.gpu_busy_percent) : "-";
    case HeadlineFigure::kDeviceIdle:
      return r.primary_device_index >= 0 && r.step_stats.total_ns > 0 ? Fixed1Percent(100.0 - r.gpu_busy_percent)
                                                                        : "-";
    case HeadlineFigure::kMostBlamed: return r.top_blamed_event.empty() ? "-" : std::string(r.top_blamed_event);
    // report --json's efficiency.mfu_percent; null there is "-" here.
    case HeadlineFigure::kMfu: return r.efficiency.mfu_percent >= 0 ? Fixed1Percent(r.efficiency.mfu_percent) : "-";
    // report --json's throughput.samples_per_s (null: "-"); a step's own in the step chart is checked apart.
    case HeadlineFigure::kSamplesPerS: {
      if (r.efficiency.samples_per_s < 0) return "-";
      char buf[48];
      std::snprintf(buf, sizeof buf, "%.1f", r.efficiency.samples_per_s);
      return buf;
    }
    default: return "";
  }
}

class HeadlineViewsTest : public ::testing::Test {
 public:
  void Frame() {
    ImGui::NewFrame();
    view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1920, 1080)};  // first: outlives the views
  ViewState state_;  // public: CheckViews draws it
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
};

// Draws the window at every size and scale and checks what each view drew.
void CheckViews(HeadlineViewsTest* test, const std::string& name) {
  struct Size {
    float w, h;
  };
  const Size sizes[] = {{1024, 700}, {1280, 800}, {1920, 1080}};
  const analysis::Report& report = test->state_.data->analysis.report;
  const analysis::Headline h = analysis::ComputeHeadline(report);
  for (const Size& size : sizes) {
    for (float scale : {1.f, 2.f}) {
      const std::string where = name + " at " + std::to_string(int(size.w)) + "x" + std::to_string(int(size.h)) +
                                " scale " + std::to_string(int(scale));
      ImGui::GetIO().DisplaySize = ImVec2(size.w, size.h);
      ImGui::GetIO().FontGlobalScale = scale;
      std::vector<DrawnHeadline> drawn;
      RecordHeadlines(&drawn);
      test->Frame();
      test->Frame();
      RecordHeadlines(nullptr);
      std::map<std::string, std::map<HeadlineFigure, std::string>> by_view;
      for (const DrawnHeadline& d : drawn) {
        const std::string expected = FromReport(report, d.figure);
        if (!expected.empty()) {
          EXPECT_EQ(d.text, expected) << d.view << ", " << where;
        }
        by_view[d.view][d.figure] = d.text;
      }
      // Each layout's view drew its figures through the helper.
      // (The overview draws no figure for a trace with neither steps nor a device: "nothing to analyse".)
      // The layout's cutoff counts logical px: at scale 2 even 1920 px is narrow.
      const bool narrow = NarrowWindow(size.w, scale);
      const char* view = narrow ? "summary line" : "overview";
      if (report.steps.empty() && report.devices.empty() && !narrow) continue;
      ASSERT_TRUE(by_view.count(view)) << view << " drew no headline figure, " << where;
      const auto& figures = by_view[view];
      std::vector<HeadlineFigure> wanted = {HeadlineFigure::kSteps};
      if (!report.steps.empty()) wanted.push_back(HeadlineFigure::kMeanStep);
      if (report.primary_device_index >= 0) wanted.push_back(HeadlineFigure::kDeviceBusy);
      if (report.primary_device_index >= 0 && !narrow) wanted.push_back(HeadlineFigure::kMfu);  // an overview tile
      // With a batch size, samples/s beside the step time: a tile, or in the summary line.
      if (report.efficiency.batch_size > 0 && !report.steps.empty()) wanted.push_back(HeadlineFigure::kSamplesPerS);
      for (HeadlineFigure f : wanted) EXPECT_TRUE(figures.count(f)) << view << " figure " << int(f) << ", " << where;
      // The top idle cause: the same in every view, and none when the idle share prints as 0.0%.
      for (const auto& [v, figs] : by_view) {
        if (!figs.count(HeadlineFigure::kTopIdleCause)) continue;
        EXPECT_EQ(figs.at(HeadlineFigure::kTopIdleCause),
                  h.has_top_idle_cause ? std::string(analysis::IdleCauseLabel(h.top_idle_cause)) : "-")
            << v << ", " << where;
      }
    }
  }
  ImGui::GetIO().FontGlobalScale = 1.f;
}

TEST_F(HeadlineViewsTest, EveryDemoScenarioAtEverySizeAndScale) {
  for (const demo::DemoScenarioInfo& info : demo::DemoScenarios()) {
    demo::DemoOptions options;
    options.scenario = std::string(info.name);
    options.steps = 6;
    auto trace = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(trace.ok()) << info.name;
    state_ = ViewState();
    state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
    CheckViews(this, std::string(info.name));
  }
}

// The planted efficiency trace: the MFU tile shows a figure, the one the report gives.
TEST_F(HeadlineViewsTest, EfficiencyDemoShowsItsMfu) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
  ASSERT_TRUE(loaded.ok());
  state_ = ViewState();
  state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()));
  const analysis::Report& report = state_.data->analysis.report;
  ASSERT_GE(report.efficiency.mfu_percent, 0);
  EXPECT_NE(FromReport(report, HeadlineFigure::kMfu), "-");
  CheckViews(this, "efficiency demo");
}

// With a batch size set (--batch-size 32, or the Efficiency settings): the
// overview's samples/s tile and the summary line's figure read as the report's.
TEST_F(HeadlineViewsTest, EfficiencyDemoWithABatchSizeShowsSamplesPerSecond) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
  ASSERT_TRUE(loaded.ok());
  analysis::EfficiencyOptions options;
  options.batch_size = 32;
  state_ = ViewState();
  state_.data =
      std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()), options);
  const analysis::Report& report = state_.data->analysis.report;
  ASSERT_DOUBLE_EQ(report.efficiency.samples_per_s, 3200.0);  // 32 samples per 10 ms step
  EXPECT_EQ(FromReport(report, HeadlineFigure::kSamplesPerS), "3200.0");
  EXPECT_EQ(state_.data->efficiency, options);
  CheckViews(this, "efficiency demo, batch 32");
}

// The step chart's tooltip over one step: that step's samples/s, through the
// headline's formatter, as report --json's steps[i].samples_per_s.
TEST_F(HeadlineViewsTest, StepChartTooltipShowsTheStepsSamplesPerSecond) {
  auto loaded = loaders::LoadBytes(demo::EfficiencyDemoJson({}), "efficiency.json");
  ASSERT_TRUE(loaded.ok());
  analysis::EfficiencyOptions options;
  options.batch_size = 32;
  state_ = ViewState();
  state_.data =
      std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()), options);
  const auto& steps = state_.data->analysis.report.steps;
  ASSERT_FALSE(steps.empty());
  // The chart alone in a window at the origin; hover across it until a
  // step's tooltip noted its figure.
  StepChart chart;
  ImGui::GetIO().DisplaySize = ImVec2(800, 400);
  std::vector<DrawnHeadline> drawn;
  bool found = false;
  for (float y = 8; y < 300 && !found; y += 16) {
    for (float x = 4; x < 700 && !found; x += 6) {
      ImGui::GetIO().MousePos = ImVec2(x, y);
      drawn.clear();
      RecordHeadlines(&drawn);
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(760, 360));
      ImGui::Begin("chart", nullptr, ImGuiWindowFlags_NoDecoration);
      chart.Draw(state_, 700, 300);
      ImGui::End();
      ImGui::Render();
      RecordHeadlines(nullptr);
      for (const DrawnHeadline& d : drawn) {
        if (d.view != std::string("step chart") || d.subject.empty()) continue;
        found = true;
        const auto it = std::find_if(steps.begin(), steps.end(), [&](const auto& st) { return st.name == d.subject; });
        ASSERT_NE(it, steps.end()) << d.subject;
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.1f", it->efficiency.samples_per_s);
        EXPECT_EQ(d.text, buf) << d.subject;
        EXPECT_EQ(d.text, "3200.0");
      }
    }
  }
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  EXPECT_TRUE(found) << "no step chart tooltip showed a step's samples/s";
}

// Every shared trace a loader reads, among them the issue's: the ResNet
// Kineto trace whose GPU busy read 59.5% in the narrow summary and 54.9% in
// the tiles, and xprof/tpu_inference_2, whose tiles said "TPU busy 100.0%"
// beside "top idle cause: Other".
TEST_F(HeadlineViewsTest, EverySharedTraceAtEverySizeAndScale) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(::stepline::testing::SharedTracesDir())) {
    if (e.is_regular_file() && e.path().extension() != ".tsv") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  size_t checked = 0;
  for (const std::string& path : paths) {
    auto loaded = loaders::LoadFile(path);
    if (!loaded.ok()) continue;  // the corrupt file, the pickle: no view to check
    state_ = ViewState();
    state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(loaded).value()));
    CheckViews(this, path);
    ++checked;
  }
  EXPECT_GT(checked, 30u);
}

TEST(HeadlineTest, LabelsNameTheDeviceKindAndNoCauseWithoutIdle) {
  using analysis::TimeCategory;
  analysis::Report r;
  r.devices.resize(1);
  r.devices[0].kind = analysis::DeviceKind::kTpu;
  r.devices[0].name = "TPU 0";
  r.primary_device_index = 0;
  r.steps.resize(2);
  r.step_stats.total_ns = 10'000;
  r.gpu_busy_percent = 99.99;
  analysis::CategoryNs& b = r.devices[0].breakdown_total;
  At(b, TimeCategory::kCompute) = 9'999;
  At(b, TimeCategory::kIdleOther) = 1;
  const analysis::Headline h = analysis::ComputeHeadline(r);
  EXPECT_EQ(analysis::HeadlineLabel(h, HeadlineFigure::kDeviceBusy), "TPU busy");
  EXPECT_EQ(analysis::HeadlineText(h, HeadlineFigure::kDeviceBusy), "100.0%");
  // "TPU busy 100.0%" beside "top idle cause: Other" read as a contradiction.
  EXPECT_EQ(analysis::HeadlineText(h, HeadlineFigure::kTopIdleCause), "-");
  // Waiting on device copies (XLA copy-done) is not idle: still no cause.
  At(b, TimeCategory::kCompute) = 300;
  At(b, TimeCategory::kMemcpyOther) = 9'699;
  r.gpu_busy_percent = 3;
  EXPECT_EQ(analysis::HeadlineText(analysis::ComputeHeadline(r), HeadlineFigure::kTopIdleCause), "-");
  At(b, TimeCategory::kIdleInput) = 2'000;
  EXPECT_EQ(analysis::HeadlineText(analysis::ComputeHeadline(r), HeadlineFigure::kTopIdleCause), "Input");
  r.devices[0].kind = analysis::DeviceKind::kGpu;
  EXPECT_EQ(analysis::HeadlineLabel(analysis::ComputeHeadline(r), HeadlineFigure::kDeviceBusy), "GPU busy");
}

}  // namespace
}  // namespace stepline::ui
