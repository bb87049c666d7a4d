// The panels' right-click menus, driven headless with the mouse (ImGui with
// no backend, as main_view_smoke_test does): each asks the app to save its
// picture (the panel's rectangle) or its table (CSV text in the panel's row
// order), or copies the table to the clipboard as TSV.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <memory>
#include <set>

#include "demo/demo_generator.h"
#include "tests/support/headless_imgui.h"
#include "ui/main_view.h"

namespace stepline::ui {
namespace {

class PanelMenuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    demo::DemoOptions options;
    options.scenario = "input-bound";
    options.steps = 6;
    auto trace = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(trace.ok());
    state_.data = std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
    state_.FitAll();
    for (int i = 0; i < 3; ++i) Frame();
  }

  ViewRequests Frame() {
    ImGui::NewFrame();
    ViewRequests r = view_.Draw(state_, status_, &renderer_);
    ImGui::Render();
    return r;
  }
  // A press and release of `button` at `at`; the requests of both frames.
  ViewRequests Click(ImVec2 at, int button) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Frame();
    io.MouseDown[button] = true;
    ViewRequests a = Frame();
    io.MouseDown[button] = false;
    ViewRequests b = Frame();
    if (a.save_panel) b.save_panel = a.save_panel;
    b.exports.insert(b.exports.end(), a.exports.begin(), a.exports.end());
    return b;
  }
  // Opens the menu at `at` and clicks down its items one position at a
  // time; everything the clicks asked for.
  ViewRequests SweepMenu(ImVec2 at) {
    ViewRequests all;
    for (float dy = 4; dy < 110; dy += 5) {
      Click(at, 1);
      ImGui::SetClipboardText("");
      ViewRequests r = Click(ImVec2(at.x + 40, at.y + dy), 0);
      if (r.save_panel) all.save_panel = r.save_panel;
      all.exports.insert(all.exports.end(), r.exports.begin(), r.exports.end());
      if (const char* clip = ImGui::GetClipboardText(); clip && *clip) clipboard_ = clip;
      Frame();  // the menu is closed again
    }
    return all;
  }
  const ExportRequest* Find(const ViewRequests& r, const std::string& stem, const std::string& ext) {
    for (const ExportRequest& e : r.exports) {
      if (e.stem == stem && e.extension == ext) return &e;
    }
    return nullptr;
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1920, 1080)};  // first: outlives the views
  ViewState state_;
  AppStatus status_;
  MainView view_;
  DrawListQuadRenderer renderer_;
  std::string clipboard_;
};

size_t Lines(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

TEST_F(PanelMenuTest, OpsTableSavesCsvCopiesTsvAndSavesItsPicture) {
  state_.panels.bottom_tab = BottomTab::kOpStats;
  state_.requests.bottom_tab = true;
  Frame();
  Frame();
  const ImVec2 at(1400, 980);  // inside the tables pane, bottom right
  const ViewRequests r = SweepMenu(at);
  const analysis::Report& report = state_.data->analysis.report;
  const ExportRequest* csv = Find(r, "ops", "csv");
  ASSERT_NE(csv, nullptr);
  EXPECT_EQ(Lines(csv->text), report.ops.size() + 1) << "every op and a header";
  EXPECT_EQ(csv->text.rfind("name,kind,count,total_ns,self_ns", 0), 0u);  // report --csv's columns
  // Sorted as the panel shows them: the largest total first.
  const auto top = std::max_element(report.ops.begin(), report.ops.end(),
                                    [](const auto& a, const auto& b) { return a.total_ns < b.total_ns; });
  const std::string first_row = csv->text.substr(csv->text.find('\n') + 1);
  EXPECT_NE(first_row.substr(0, first_row.find('\n')).find("," + std::to_string(top->total_ns) + ","), std::string::npos)
      << first_row.substr(0, 200);
  EXPECT_EQ(Lines(clipboard_), report.ops.size() + 1) << "TSV on the clipboard";
  EXPECT_NE(clipboard_.find("\ttotal_ns\t"), std::string::npos);
  ASSERT_TRUE(r.save_panel.has_value());
  EXPECT_EQ(r.save_panel->stem, "ops");
  EXPECT_LT(r.save_panel->x0, at.x);
  EXPECT_GT(r.save_panel->x1, at.x);
  EXPECT_LT(r.save_panel->y0, at.y);
  EXPECT_GT(r.save_panel->y1, at.y);
  EXPECT_LE(r.save_panel->x1, 1920.f);
  EXPECT_LE(r.save_panel->y1, 1080.f);
}

TEST_F(PanelMenuTest, GapsTableListsTheFilteredGaps) {
  state_.panels.bottom_tab = BottomTab::kIdleGaps;
  state_.requests.bottom_tab = true;
  Frame();
  const ViewRequests r = SweepMenu(ImVec2(1000, 1000));
  const ExportRequest* csv = Find(r, "gaps", "csv");
  ASSERT_NE(csv, nullptr);
  // The panel's default filter: every cause, at least 10 us.
  size_t listed = 0;
  for (const auto& g : state_.data->analysis.gaps) listed += g.dur_ns() >= 10'000;
  EXPECT_EQ(Lines(csv->text), listed + 1);
  EXPECT_EQ(csv->text.rfind("device,start_ns,dur_ns,step,cause,next_kernel,launch_delay_ns,blamed_event,", 0), 0u);
}

TEST_F(PanelMenuTest, OverviewSavesTheStepChartAsSvgAndPng) {
  const ViewRequests r = SweepMenu(ImVec2(300, 400));
  const ExportRequest* svg = Find(r, "step-chart", "svg");
  ASSERT_NE(svg, nullptr);
  EXPECT_EQ(svg->text.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg->text.find("</svg>"), std::string::npos);
  const ExportRequest* steps = Find(r, "steps", "csv");
  ASSERT_NE(steps, nullptr);
  EXPECT_EQ(Lines(steps->text), state_.data->analysis.report.steps.size() + 1);
  ASSERT_TRUE(r.save_panel.has_value());
  // The sweep ends on the lowest item clicked last that saves a picture:
  // either the overview or its step chart, inside the overview column.
  EXPECT_TRUE(r.save_panel->stem == "overview" || r.save_panel->stem == "step-chart") << r.save_panel->stem;
  EXPECT_LT(r.save_panel->x1, 700.f);
}

TEST_F(PanelMenuTest, TimelineSavesItsPicture) {
  const ImVec2 at(1300, 300);
  const ViewRequests r = SweepMenu(at);
  ASSERT_TRUE(r.save_panel.has_value());
  EXPECT_EQ(r.save_panel->stem, "timeline");
  EXPECT_LT(r.save_panel->x0, at.x);
  EXPECT_GT(r.save_panel->y1, at.y);
  EXPECT_TRUE(r.exports.empty());
}

}  // namespace
}  // namespace stepline::ui
