// No dead ends and no hidden parts, at every size: the single view and the
// compare view drawn headless at 1024x700, 1280x800, 1920x1080 and at scale
// 2. A selected kernel's details are on screen whatever the width (at 1024
// px they once sat in a tab nobody opened); the idle-gaps columns are as
// wide as their longest value (they cut "717.6 ms" to "717.6 m"); the
// compare summary shows its B - A and change columns (hidden at 1024 px).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "demo/demo_generator.h"
#include "model/text_format.h"
#include "tests/support/headless_imgui.h"
#include "ui/analysis_format.h"
#include "ui/body_layout.h"
#include "ui/compare/compare_view.h"
#include "ui/main_view.h"
#include "ui/timeline/track_layout.h"
#include "ui/tooltip.h"

namespace stepline::ui {
namespace {

struct LayoutSize {
  float w, h, scale;
};
constexpr LayoutSize kLayoutSizes[] = {{1024, 700, 1}, {1280, 800, 1}, {1920, 1080, 1}, {1920, 1080, 2}};

std::string LayoutWhere(const LayoutSize& s) {
  return std::to_string(int(s.w)) + "x" + std::to_string(int(s.h)) + " scale " + std::to_string(int(s.scale));
}

std::shared_ptr<const TimelineData> LayoutDemo(const char* scenario) {
  demo::DemoOptions options;
  options.scenario = scenario;
  options.steps = 5;
  auto trace = demo::GenerateDemoTrace(options);
  EXPECT_TRUE(trace.ok());
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(std::move(trace).value()));
}

// The active window whose name holds `part` ("##details_beside"), or null.
ImGuiWindow* LayoutFindWindow(const char* part) {
  for (ImGuiWindow* w : GImGui->Windows) {
    if (w->Active && std::strstr(w->Name, part) != nullptr) return w;
  }
  return nullptr;
}

// The table drawn last frame with `columns` columns inside a window named with `part`.
ImGuiTable* LayoutFindTable(const char* part, int columns) {
  ImGuiContext& g = *GImGui;
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    ImGuiTable* t = g.Tables.TryGetMapData(i);
    if (t == nullptr || t->ColumnsCount != columns || t->LastFrameActive != g.FrameCount) continue;
    if (t->OuterWindow != nullptr && std::strstr(t->OuterWindow->Name, part) != nullptr) return t;
  }
  return nullptr;
}

class WindowLayoutTest : public ::testing::Test {
 protected:
  void TearDown() override { ImGui::GetIO().FontGlobalScale = 1.f; }
  void SetSize(const LayoutSize& s) {
    ImGui::GetIO().DisplaySize = ImVec2(s.w, s.h);
    ImGui::GetIO().FontGlobalScale = s.scale;
  }
  void MainFrame(MainView& view, ViewState& state) {
    ImGui::NewFrame();
    view.Draw(state, status_, &renderer_);
    ImGui::Render();
  }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1920, 1080)};
  AppStatus status_;
  DrawListQuadRenderer renderer_;
};

// Clicking a kernel shows its details at every size: under the overview
// column when it is drawn, else beside the tables; never in a hidden tab.
TEST_F(WindowLayoutTest, ASelectedKernelsDetailsAreOnScreenAtEverySize) {
  const auto data = LayoutDemo("input-bound");
  uint32_t kernel = 0;
  const auto kinds = data->trace->slices().gpu_kind();
  while (kernel < data->trace->slices().size() && kinds[kernel] != GpuKind::kKernel) ++kernel;
  ASSERT_LT(kernel, data->trace->slices().size());
  for (const LayoutSize& s : kLayoutSizes) {
    SetSize(s);
    MainView view;
    ViewState state;
    state.data = data;
    state.selected = SliceId(kernel);
    MainFrame(view, state);
    MainFrame(view, state);
    const bool narrow = NarrowWindow(s.w, s.scale);
    ImGuiWindow* details = LayoutFindWindow(narrow ? "##details_beside" : "##details");
    ASSERT_NE(details, nullptr) << "no details panel at " << LayoutWhere(s);
    EXPECT_GE(details->Size.x, 200.f * s.scale) << LayoutWhere(s);
    EXPECT_GE(details->Size.y, 80.f) << LayoutWhere(s);
    EXPECT_LE(details->Pos.x + details->Size.x, s.w + 0.5f) << LayoutWhere(s);
    EXPECT_LE(details->Pos.y + details->Size.y, s.h + 0.5f) << LayoutWhere(s);
    // The overview column where there is room (logical px), else the summary line.
    EXPECT_EQ(LayoutFindWindow("##overview") != nullptr, !narrow) << LayoutWhere(s);
  }
}

// Every fixed column of the idle-gaps table is as wide as its widest value
// over all gaps, not only over the rows on screen when it first fitted.
TEST_F(WindowLayoutTest, IdleGapColumnsHoldTheirLongestValue) {
  const auto data = LayoutDemo("input-bound");
  const analysis::Report& report = data->analysis.report;
  const TimeNs origin = data->trace->span().start_ns;
  float widest[5] = {};
  ImGui::NewFrame();  // text sizes need a frame's font, at scale 1
  for (size_t i = 0; i < data->analysis.gaps.size(); ++i) {
    const analysis::IdleGap& g = data->analysis.gaps[i];
    const std::string values[5] = {report.devices[data->analysis.gap_device[i]].name,
                                   text::FormatDuration(g.start_ns - origin), text::FormatDuration(g.dur_ns()),
                                   g.step >= 0 ? report.steps[static_cast<size_t>(g.step)].name : "-",
                                   CauseLabel(g.cause)};
    for (int c = 0; c < 5; ++c) widest[c] = std::max(widest[c], ImGui::CalcTextSize(values[c].c_str()).x);
  }
  ImGui::EndFrame();
  ASSERT_FALSE(data->analysis.gaps.empty());
  for (const LayoutSize& s : kLayoutSizes) {
    SetSize(s);
    MainView view;
    ViewState state;
    state.data = data;
    for (int f = 0; f < 3; ++f) MainFrame(view, state);
    ImGuiTable* table = LayoutFindTable("##gap_table", 6);
    ASSERT_NE(table, nullptr) << LayoutWhere(s);
    for (int c = 0; c < 5; ++c) {
      // The cause cell also holds its swatch; the widths are at this frame's font scale.
      const float need = widest[c] * s.scale + (c == 4 ? ImGui::GetFontSize() : 0.f);
      EXPECT_GE(table->Columns[c].WidthGiven + 1.f, need) << "column " << c << " at " << LayoutWhere(s);
    }
  }
}

// The compare summary keeps every column inside its panel at every size,
// and the verdict line reads as `stepline diff` words it.
TEST_F(WindowLayoutTest, CompareSummaryShowsEveryColumnAtEverySize) {
  const auto a = LayoutDemo("input-bound"), b = LayoutDemo("baseline");
  for (const LayoutSize& s : kLayoutSizes) {
    SetSize(s);
    CompareView view;
    view.SetRuns(a, "/some/long/folder/of/runs/input_bound_run_a.pt.trace.json", b,
                 "/some/long/folder/of/runs/baseline_run_b.pt.trace.json");
    CompareStatus status;
    for (int f = 0; f < 3; ++f) {
      ImGui::NewFrame();
      view.Draw(status, &renderer_);
      ImGui::Render();
    }
    ImGuiTable* table = LayoutFindTable("##compare_left", 5);
    ASSERT_NE(table, nullptr) << LayoutWhere(s);
    const float right = table->OuterWindow->InnerClipRect.Max.x;
    for (int c = 0; c < 5; ++c) {
      EXPECT_LE(table->Columns[c].MaxX, right + 1.f) << "summary column " << c << " cut at " << LayoutWhere(s);
    }
    // The two timelines get most of the height, not three rows each.
    const ImGuiWindow* ops = LayoutFindWindow("##ops_diff");
    ASSERT_NE(ops, nullptr);
    EXPECT_LE(ops->Size.y, s.h * (s.h < 900 * s.scale ? 0.24f : 0.34f)) << LayoutWhere(s);
  }
}

// A tooltip with a long kernel name wraps inside the window at every size
// (it ran off the window's edge).
TEST_F(WindowLayoutTest, LongTooltipsWrapInsideTheWindow) {
  std::string name = "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, ";
  while (name.size() < 400) name += "at::native::MulFunctor<float> >, at::detail::Array<char*, 3> >";
  for (const LayoutSize& s : kLayoutSizes) {
    SetSize(s);
    for (int f = 0; f < 2; ++f) {  // a window takes its content's size on the frame after
      ImGui::NewFrame();
      WrappedTooltip("%s\n%s", name.c_str(), "12.3 ms");
      ImGui::Render();
    }
    const ImGuiWindow* tip = nullptr;
    for (ImGuiWindow* w : GImGui->Windows) {
      if (w->Active && (w->Flags & ImGuiWindowFlags_Tooltip)) tip = w;
    }
    ASSERT_NE(tip, nullptr) << LayoutWhere(s);
    EXPECT_LE(tip->Size.x, s.w * 0.65f) << LayoutWhere(s);
    EXPECT_GT(tip->Size.y, 3 * ImGui::GetFontSize()) << "not wrapped at " << LayoutWhere(s);
  }
}

// The compare view's titles keep their file names when cut: B's once ran
// off the menu bar.
TEST_F(WindowLayoutTest, CutTitlesKeepTheirFileNames) {
  ImGui::NewFrame();
  const std::string path = "/home/someone/experiments/2024/very/long/folder/of/runs/baseline_run_b.pt.trace.json";
  const float room = ImGui::CalcTextSize("...baseline_run_b.pt.trace.json").x + 40.f;
  const std::string cut = FitTextTail(path, room, ImGui::GetFontSize());
  EXPECT_EQ(cut.rfind("...", 0), 0u) << cut;
  EXPECT_NE(cut.find("baseline_run_b.pt.trace.json"), std::string::npos) << cut;
  EXPECT_LE(ImGui::CalcTextSize(cut.c_str()).x, room);
  EXPECT_EQ(FitTextTail("b.json", 200.f, ImGui::GetFontSize()), "b.json");
  ImGui::EndFrame();
}

// Idle-gap shading covers kernel streams, never a copy row or a stream of
// copies alone: there it read as copies.
TEST(WindowTextTest, GapShadingSkipsCopyRows) {
  EXPECT_TRUE(RowShowsIdleGaps(RowKind::kSliceTrack, TrackKind::kGpuStream, false));
  EXPECT_FALSE(RowShowsIdleGaps(RowKind::kCopyRow, TrackKind::kGpuStream, false));
  EXPECT_FALSE(RowShowsIdleGaps(RowKind::kSliceTrack, TrackKind::kHostThread, false));
  EXPECT_FALSE(RowShowsIdleGaps(RowKind::kSliceTrack, TrackKind::kGpuStream, true));
}

// Recommendations are written for Markdown: the window drops the code spans' backticks.
TEST(WindowTextTest, CodeSpansDrawAsPlainText) {
  EXPECT_EQ(PlainCodeSpans("a list of losses that are not `.item()`'d"), "a list of losses that are not .item()'d");
  EXPECT_EQ(PlainCodeSpans("no code"), "no code");
}

}  // namespace
}  // namespace stepline::ui
