// The compare view's right-click menus, driven headless with the mouse (as
// panel_menu_test does for the single view): each panel asks the app to save
// its picture (its rectangle), the whole compare view or the window; the ops
// diff and summary tables are copied as TSV and saved as CSV; the caption
// strip follows the app's preference and reports where it was drawn.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <map>
#include <memory>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/compare/compare_view.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

std::shared_ptr<const TimelineData> MakeRun(int steps, int64_t step_us, const char* only_op) {
  SyntheticTrace t;
  t.Thread("main").Slice("setup", Us(0), Us(5));
  for (int i = 0; i < steps; ++i) {
    const int64_t at = 100 + i * step_us;
    t.Thread("main").Slice("ProfilerStep#" + std::to_string(i + 1), Us(at), Us(step_us - 10));
    t.Thread("main").Slice("aten::add", Us(at + 1), Us(5));
    t.Thread("main").Slice(only_op, Us(at + 6), Us(2));
    t.Kernel(7, Us(at + 10), Us(step_us / 2), "gemm").LaunchedFrom("main", Us(at + 2));
  }
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(t.Build()));
}

class CompareMenuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view_.SetRuns(MakeRun(5, 1'000, "only_in_a"), "a.json", MakeRun(4, 3'000, "only_in_b"), "b.json");
    for (int i = 0; i < 3; ++i) Frame();
  }

  CompareRequests Frame() {
    ImGui::NewFrame();
    CompareRequests r = view_.Draw(status_, &renderer_);
    ImGui::Render();
    return r;
  }
  // What a sweep of a menu asked for, every picture by its stem.
  struct Asked {
    std::map<std::string, PanelShot> shots;
    std::vector<ExportRequest> exports;
    bool window = false;
    std::string clipboard;
  };
  void Collect(const CompareRequests& r, Asked* all) {
    if (r.save_panel) all->shots[r.save_panel->stem] = *r.save_panel;
    all->exports.insert(all->exports.end(), r.exports.begin(), r.exports.end());
    all->window |= r.save_screenshot;
  }
  // A press and release of `button` at `at`, collected into `all`.
  void Click(ImVec2 at, int button, Asked* all) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    Collect(Frame(), all);
    io.MouseDown[button] = true;
    Collect(Frame(), all);
    io.MouseDown[button] = false;
    Collect(Frame(), all);
  }
  // Opens the menu at `at` and clicks down its items one position at a time.
  Asked SweepMenu(ImVec2 at) {
    Asked all;
    for (float dy = 4; dy < 130; dy += 5) {
      Asked ignored;
      Click(at, 1, &ignored);
      ImGui::SetClipboardText("");
      Click(ImVec2(at.x + 40, at.y + dy), 0, &all);
      if (const char* clip = ImGui::GetClipboardText(); clip && *clip) all.clipboard = clip;
      Frame();
    }
    return all;
  }
  static const ExportRequest* Find(const Asked& a, const std::string& stem) {
    for (const ExportRequest& e : a.exports) {
      if (e.stem == stem && e.extension == "csv") return &e;
    }
    return nullptr;
  }
  static bool Contains(const PanelShot& s, ImVec2 p) { return s.x0 < p.x && p.x < s.x1 && s.y0 < p.y && p.y < s.y1; }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1600, 900)};  // first: outlives the views
  CompareView view_;
  CompareStatus status_;
  DrawListQuadRenderer renderer_;
};

TEST_F(CompareMenuTest, OpsDiffSavesItsPictureAndItsRowsAsShown) {
  const ImVec2 at(1100, 780);
  const Asked a = SweepMenu(at);
  ASSERT_TRUE(a.shots.count("ops-diff"));
  EXPECT_TRUE(Contains(a.shots.at("ops-diff"), at));
  EXPECT_LE(a.shots.at("ops-diff").y1, 900.f);
  ASSERT_TRUE(a.shots.count("compare")) << "Save compare view as PNG";
  EXPECT_TRUE(a.window) << "Save window as PNG";
  const ExportRequest* csv = Find(a, "ops-diff");
  ASSERT_NE(csv, nullptr);
  const std::string expected = ToCsv(OpsDiffTextTable(view_.comparison(), view_.ops_table().visible_rows()));
  EXPECT_EQ(csv->text, expected);
  EXPECT_EQ(csv->text.rfind("in,kind,name,a_count,b_count,a_total_ns,b_total_ns,delta_ns,delta_per_step_ns\n", 0), 0u);
  EXPECT_EQ(std::count(csv->text.begin(), csv->text.end(), '\n'), static_cast<long>(view_.comparison().ops.size() + 1));
  EXPECT_NE(csv->text.find("only_a,host_op,only_in_a,5,0,"), std::string::npos) << csv->text;
  EXPECT_EQ(a.clipboard, ToTsv(OpsDiffTextTable(view_.comparison(), view_.ops_table().visible_rows())));
}

TEST_F(CompareMenuTest, WholeViewCoversBothColumnsUnderTheMenuBar) {
  const Asked a = SweepMenu(ImVec2(1100, 780));
  ASSERT_TRUE(a.shots.count("compare"));
  const PanelShot& whole = a.shots.at("compare");
  EXPECT_LE(whole.x0, 1.f);
  EXPECT_GE(whole.x1, 1599.f);
  EXPECT_GT(whole.y0, 10.f) << "below the menu bar";
  EXPECT_GE(whole.y1, 899.f) << "no caption: to the bottom";
}

TEST_F(CompareMenuTest, SummaryAndChartEachSaveTheirPart) {
  const ImVec2 in_summary(150, 110), in_chart(300, 650);
  const Asked s = SweepMenu(in_summary);
  ASSERT_TRUE(s.shots.count("compare-summary"));
  EXPECT_TRUE(Contains(s.shots.at("compare-summary"), in_summary));
  EXPECT_FALSE(s.shots.count("compare-chart"));
  const ExportRequest* csv = Find(s, "compare-summary");
  ASSERT_NE(csv, nullptr);
  EXPECT_EQ(csv->text, ToCsv(CompareSummaryTextTable(view_.comparison())));
  EXPECT_EQ(csv->text.rfind("metric,unit,a,b,delta,delta_percent\nSteps,count,5,4,-1,", 0), 0u) << csv->text;
  const Asked c = SweepMenu(in_chart);
  ASSERT_TRUE(c.shots.count("compare-chart"));
  const PanelShot& chart = c.shots.at("compare-chart");
  EXPECT_TRUE(Contains(chart, in_chart));
  EXPECT_GE(chart.y0, s.shots.at("compare-summary").y1 - 1) << "the chart starts under the summary";
  ASSERT_FALSE(c.exports.empty()) << "the chart as SVG";
  for (const ExportRequest& e : c.exports) EXPECT_EQ(e.stem + "." + e.extension, "compare-chart.svg");
  EXPECT_EQ(c.exports[0].text.rfind("<?xml", 0), 0u);
  EXPECT_NE(c.exports[0].text.find("A a.json vs B b.json"), std::string::npos);
}

TEST_F(CompareMenuTest, EachTimelineSavesItselfWithItsTitleStrip) {
  const ImVec2 in_a(1100, 200), in_b(1100, 480);
  const Asked a = SweepMenu(in_a);
  const Asked b = SweepMenu(in_b);
  ASSERT_TRUE(a.shots.count("timeline-a"));
  ASSERT_TRUE(b.shots.count("timeline-b"));
  const PanelShot& sa = a.shots.at("timeline-a");
  const PanelShot& sb = b.shots.at("timeline-b");
  EXPECT_TRUE(Contains(sa, in_a));
  EXPECT_TRUE(Contains(sb, in_b));
  EXPECT_LE(sa.y1, sb.y0 + 1) << "A above B, apart";
  EXPECT_GT(sa.x0, 400.f) << "right of the left column";
  EXPECT_TRUE(a.exports.empty());
}

TEST_F(CompareMenuTest, CaptionStripFollowsThePreferenceAndShortensTheWholeView) {
  EXPECT_FALSE(view_.caption_strip().has_value());
  status_.show_caption = true;
  Frame();
  ASSERT_TRUE(view_.caption_strip().has_value());
  EXPECT_GE(view_.caption_strip()->y1, 890.f) << "along the bottom";
  EXPECT_NE(view_.CaptionText().find("A: a.json  vs  B: b.json"), std::string::npos) << view_.CaptionText();
  // The whole view now ends where the strip starts.
  const Asked a = SweepMenu(ImVec2(1100, 700));
  ASSERT_TRUE(a.shots.count("compare"));
  EXPECT_LE(a.shots.at("compare").y1, view_.caption_strip()->y0 + 1);
}

}  // namespace
}  // namespace stepline::ui
