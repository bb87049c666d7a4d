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
  old.requests.bottom_tab = true;
  old.links.show_gap_overlay = false;
  old.pictures.show_caption = true;
  old.pictures.export_folder = "/data/shots";
  old.color_mode = ColorMode::kByKind;
  old.selected = SliceId(7);
  old.links.focused_step = 3;
  old.links.selected_gap = 2;
  old.search.text = "gemm";
  old.pictures.solo = SoloPanel::kOpStats;

  ViewState fresh;
  fresh.KeepPreferencesOf(old);
  EXPECT_EQ(fresh.panels, old.panels);
  EXPECT_TRUE(fresh.requests.bottom_tab);
  EXPECT_FALSE(fresh.links.show_gap_overlay);
  EXPECT_TRUE(fresh.pictures.show_caption);
  EXPECT_EQ(fresh.pictures.export_folder, "/data/shots");
  EXPECT_EQ(fresh.color_mode, ColorMode::kByKind);
  EXPECT_TRUE(fresh.selected.is_none());
  EXPECT_EQ(fresh.links.focused_step, -1);
  EXPECT_EQ(fresh.links.selected_gap, -1);
  EXPECT_TRUE(fresh.search.text.empty());
  EXPECT_EQ(fresh.pictures.solo, SoloPanel::kNone) << "solo is for one headless picture, not a preference";
}

}  // namespace
}  // namespace stepline::ui
