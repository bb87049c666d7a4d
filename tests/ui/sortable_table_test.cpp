// Table widths: name columns keep a readable minimum and the table scrolls
// sideways instead (regression: at ~1000 px beside the top-10 chart the ops
// table's Name column fell to one character and "% time" was cut), and a
// chart beside a table gives way first.
#include "ui/sortable_table.h"

#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <memory>
#include <string>

#include "tests/support/headless_imgui.h"
#include "tests/support/synthetic_trace.h"
#include "ui/kernel_panel.h"
#include "ui/op_stats_panel.h"
#include "ui/theme.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::ui {
namespace {

using stepline::testing::SyntheticTrace;
using stepline::testing::Us;

TEST(SideChartWidthTest, PreferredWhenRoomyGivesWayToTheTableDownToItsMinimum) {
  // Roomy: the preferred width (under the share).
  EXPECT_FLOAT_EQ(SideChartWidth(1600, 900, 380, 0.3f, 200), 380);
  // The share caps it.
  EXPECT_FLOAT_EQ(SideChartWidth(1000, 0, 380, 0.3f, 200), 300);
  // The table needs more: the chart shrinks, but not under its minimum.
  EXPECT_FLOAT_EQ(SideChartWidth(1000, 750, 380, 0.3f, 200), 250);
  EXPECT_FLOAT_EQ(SideChartWidth(1000, 950, 380, 0.3f, 200), 200);
  // A small area: the share of it, even under the minimum.
  EXPECT_FLOAT_EQ(SideChartWidth(500, 900, 380, 0.3f, 200), 150);
}

std::shared_ptr<const TimelineData> LongNamesData() {
  SyntheticTrace b;
  b.Thread("main")
      .Slice("ProfilerStep#1", Us(0), Us(1000))
      .Slice("aten::cudnn_convolution_backward_weight", Us(10), Us(300));
  for (int i = 0; i < 3; ++i) {
    b.Kernel(7, Us(20 + i * 100), Us(40),
             "void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int)")
        .LaunchedFrom("main", Us(15 + i * 100));
  }
  return std::make_shared<const TimelineData>(std::make_shared<const Trace>(b.Build()));
}

// The table among ImGui's that has `columns` columns (one such table per test).
ImGuiTable* FindTable(int columns) {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (int n = 0; n < g.Tables.Buf.Size; ++n) {
    ImGuiTable* t = g.Tables.GetByIndex(n);
    if (t->ID != 0 && t->ColumnsCount == columns) return t;
  }
  return nullptr;
}

class TableWidthTest : public ::testing::Test {
 protected:
  void SetUp() override { state_.data = LongNamesData(); }
  // Draws `draw` in a window `width` px wide, as the bottom tab area would.
  template <typename F>
  void Frames(float width, F draw) {
    for (int i = 0; i < 3; ++i) {
      ImGui::NewFrame();
      ImGui::SetNextWindowPos(ImVec2(0, 0));
      ImGui::SetNextWindowSize(ImVec2(width, theme::kBottomPaneHeight));
      ImGui::Begin("bottom", nullptr, ImGuiWindowFlags_NoDecoration);
      draw();
      ImGui::End();
      ImGui::Render();
    }
  }
  float MinNameWidth() const { return theme::kNameColumnMinEm * ImGui::GetFontSize(); }

  stepline::testing::HeadlessImGui imgui_{ImVec2(1920, 1080)};  // first: outlives the panels
  ViewState state_;
};

TEST_F(TableWidthTest, OpsNameColumnStaysReadableBesideTheChartAndTheNumbersScroll) {
  OpStatsPanel panel;
  Frames(1000, [&] { panel.Draw(state_); });
  ImGuiTable* t = FindTable(kOpColumnCount);
  ASSERT_NE(t, nullptr);
  EXPECT_GE(t->Columns[static_cast<int>(OpColumn::kName)].WidthGiven, MinNameWidth() - 1);
  // The last header is whole: "Bound" gets its width, scrolled to if need be.
  EXPECT_GE(t->Columns[kOpColumnCount - 1].WidthGiven, ImGui::CalcTextSize("Bound").x);
  EXPECT_GT(t->InnerWindow->ScrollMax.x, 0.f) << "too narrow for every column: it scrolls sideways";
  EXPECT_EQ(t->FreezeColumnsRequest, static_cast<int>(OpColumn::kName) + 1) << "names stay put";
}

TEST_F(TableWidthTest, OpsTableFillsAWideAreaWithoutScrolling) {
  OpStatsPanel panel;
  Frames(1900, [&] { panel.Draw(state_); });
  ImGuiTable* t = FindTable(kOpColumnCount);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->InnerWindow->ScrollMax.x, 0.f);
  EXPECT_GT(t->Columns[static_cast<int>(OpColumn::kName)].WidthGiven, MinNameWidth());
}

TEST_F(TableWidthTest, KernelAndLaunchingOpColumnsKeepTheirMinimum) {
  KernelPanel panel;
  Frames(700, [&] { panel.Draw(state_); });
  ImGuiTable* t = FindTable(kKernelColumnCount);
  ASSERT_NE(t, nullptr);
  const float em = ImGui::GetFontSize();
  EXPECT_GE(t->Columns[static_cast<int>(KernelColumn::kName)].WidthGiven, 2 * theme::kKernelOpMinEm * em - 1);
  EXPECT_GE(t->Columns[static_cast<int>(KernelColumn::kOp)].WidthGiven, theme::kKernelOpMinEm * em - 1);
}

TEST_F(TableWidthTest, MinWidthCountsHeadersSamplesAndStretchMinimums) {
  Frames(800, [&] {
    const SortableColumn one_fixed[] = {{"Count", kColumnFixed, 0, 0, "123456789012345"}};
    const SortableColumn one_stretch[] = {{"Name", kColumnStretch, 0, 10}};
    EXPECT_GE(SortableTableMinWidth(one_fixed), ImGui::CalcTextSize("123456789012345").x);
    EXPECT_GE(SortableTableMinWidth(one_stretch), 10 * ImGui::GetFontSize());
    const SortableColumn both[] = {one_fixed[0], one_stretch[0]};
    EXPECT_FLOAT_EQ(SortableTableMinWidth(both), SortableTableMinWidth(one_fixed) + SortableTableMinWidth(one_stretch));
  });
}

}  // namespace
}  // namespace stepline::ui
