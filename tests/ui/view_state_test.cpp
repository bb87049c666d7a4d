// ViewState::KeepPreferencesOf: loading another trace keeps the user's
// layout and options, and drops everything tied to the old trace.
#include "ui/view_state.h"

#include <gtest/gtest.h>

namespace stepline::ui {
namespace {

TEST(ViewStateTest, KeepsPreferencesNotTraceState) {
  ViewState old;
  old.panels.show_overview = false;
  old.panels.bottom_height = 222;
  old.panels.bottom_tab = BottomTab::kKernels;
  old.request_bottom_tab = true;
  old.show_gap_overlay = false;
  old.show_caption = true;
  old.export_folder = "/data/shots";
  old.color_mode = ColorMode::kByKind;
  old.selected = SliceId(7);
  old.focused_step = 3;
  old.selected_gap = 2;
  old.search_text = "gemm";
  old.solo = SoloPanel::kOpStats;

  ViewState fresh;
  fresh.KeepPreferencesOf(old);
  EXPECT_EQ(fresh.panels, old.panels);
  EXPECT_TRUE(fresh.request_bottom_tab);
  EXPECT_FALSE(fresh.show_gap_overlay);
  EXPECT_TRUE(fresh.show_caption);
  EXPECT_EQ(fresh.export_folder, "/data/shots");
  EXPECT_EQ(fresh.color_mode, ColorMode::kByKind);
  EXPECT_TRUE(fresh.selected.is_none());
  EXPECT_EQ(fresh.focused_step, -1);
  EXPECT_EQ(fresh.selected_gap, -1);
  EXPECT_TRUE(fresh.search_text.empty());
  EXPECT_EQ(fresh.solo, SoloPanel::kNone) << "solo is for one headless picture, not a preference";
}

}  // namespace
}  // namespace stepline::ui
