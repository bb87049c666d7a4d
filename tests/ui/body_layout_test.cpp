// Small windows stay usable: at 1024x700 the overview collapses to a summary
// strip and the timeline keeps at least half the height; wide windows keep the
// overview column, at most a third of the width, whatever the saved width.
#include "ui/body_layout.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace stepline::ui {
namespace {

constexpr float kSplitter = 6.f;

TEST(BodyLayout, SmallWindowCollapsesTheOverviewAndKeepsHalfForTheTimeline) {
  PanelLayout panels;  // defaults: overview on, 600 px wide, tables 330 px tall
  const BodyLayout l = ComputeBodyLayout(panels, 1024, 1008, 600, kSplitter, 1.f);
  EXPECT_FALSE(l.overview_column);
  EXPECT_TRUE(l.summary_strip);
  EXPECT_GE(l.timeline_h, 600 * 0.5f - kSplitter);
  EXPECT_FLOAT_EQ(l.timeline_h + l.bottom_h + kSplitter, 600);
}

TEST(BodyLayout, TallTablesNeverTakeMoreThanHalf) {
  PanelLayout panels;
  panels.bottom_height = 2000;  // dragged down in an earlier, larger window
  const BodyLayout l = ComputeBodyLayout(panels, 1600, 1580, 900, kSplitter, 1.f);
  EXPECT_TRUE(l.overview_column);
  EXPECT_GE(l.timeline_h, l.bottom_h);
}

TEST(BodyLayout, OverviewColumnIsAtMostAThird) {
  PanelLayout panels;
  panels.overview_width = 1500;
  BodyLayout l = ComputeBodyLayout(panels, 1600, 1580, 900, kSplitter, 1.f);
  EXPECT_LE(l.overview_w, 1580 / 3.f);
  panels.overview_width = 300;
  l = ComputeBodyLayout(panels, 1920, 1900, 1000, kSplitter, 1.f);
  EXPECT_FLOAT_EQ(l.overview_w, 300);
  panels.show_overview = false;  // View > Overview column off: neither column nor strip
  l = ComputeBodyLayout(panels, 1024, 1008, 600, kSplitter, 1.f);
  EXPECT_FALSE(l.overview_column);
  EXPECT_FALSE(l.summary_strip);
}

TEST(BodyLayout, CollapsesBelow1280PixelsOfWindowWidth) {
  PanelLayout panels;
  EXPECT_TRUE(ComputeBodyLayout(panels, 1279, 1260, 800, kSplitter, 1.f).summary_strip);
  EXPECT_TRUE(ComputeBodyLayout(panels, 1280, 1260, 800, kSplitter, 1.f).overview_column);
}

// At 2x display scaling the window's pixels are twice its logical pixels: a
// 1920 px wide window holds what a 960 px one does at 1x, and is narrow.
TEST(BodyLayout, CutoffCountsLogicalPixels) {
  PanelLayout panels;
  EXPECT_TRUE(ComputeBodyLayout(panels, 1920, 1900, 1000, kSplitter, 2.f).summary_strip);
  EXPECT_TRUE(ComputeBodyLayout(panels, 2560, 2540, 1400, kSplitter, 2.f).overview_column);
  EXPECT_TRUE(NarrowWindow(2559, 2.f));
  EXPECT_FALSE(NarrowWindow(2560, 2.f));
  // The window's 15 px font (UiScale 15/13 at 1x) is not a display scale:
  // a 1280 px window at 1x keeps its overview column.
  EXPECT_TRUE(ComputeBodyLayout(panels, 1280, 1260, 800, kSplitter, 15.f / 13.f, 1.f).overview_column);
  EXPECT_TRUE(ComputeBodyLayout(panels, 2048, 2030, 1300, kSplitter, 30.f / 13.f, 2.f).summary_strip);
}

// The details sit under the overview column; wherever the column is not
// drawn they are beside the tables, at every size, wide enough to read.
TEST(BodyLayout, DetailsAreShownAtEverySize) {
  struct Case {
    float w, h, scale;
  };
  for (const Case c : {Case{1024, 700, 1}, Case{1280, 800, 1}, Case{1920, 1080, 1}, Case{1024, 700, 2},
                       Case{1920, 1080, 2}}) {
    for (bool overview : {true, false}) {
      PanelLayout panels;
      panels.show_overview = overview;
      const BodyLayout l = ComputeBodyLayout(panels, c.w, c.w - 16, c.h - 80, kSplitter, c.scale);
      EXPECT_NE(l.overview_column, l.details_beside_tables) << c.w << "x" << c.h << " scale " << c.scale;
      if (l.details_beside_tables) {
        EXPECT_GE(l.details_w, std::min(260.f * c.scale, (c.w - 16) * 0.5f)) << c.w;
        EXPECT_LE(l.details_w, (c.w - 16) * 0.5f) << c.w;  // the tables keep at least half
      }
    }
  }
}

}  // namespace
}  // namespace stepline::ui
