// Viewport: time <-> pixel mapping, zoom around the cursor, pan, fit.
#include "ui/timeline/viewport.h"

#include <gtest/gtest.h>

namespace stepline::ui {
namespace {

TEST(ViewportTest, MapsTimeToPixelsBothWays) {
  Viewport v{{1000, 2000}, 100.0};
  EXPECT_DOUBLE_EQ(v.px_per_ns(), 0.1);
  EXPECT_DOUBLE_EQ(v.TimeToX(1500), 50.0);
  EXPECT_EQ(v.XToTime(25.0), 1250);
}

TEST(ViewportTest, ZoomKeepsTimeUnderCursor) {
  Viewport v{{0, 1'000'000}, 1000.0};
  const TimeNs before = v.XToTime(250.0);
  v.ZoomAround(250.0, 4.0);
  EXPECT_EQ(v.visible.duration_ns(), 250'000);
  EXPECT_NEAR(static_cast<double>(v.XToTime(250.0)), static_cast<double>(before), 1.0);
  v.ZoomAround(250.0, 1e12);  // clamps at the minimum width
  EXPECT_EQ(v.visible.duration_ns(), Viewport::kMinVisibleNs);
}

TEST(ViewportTest, PanAndFit) {
  Viewport v{{0, 1000}, 100.0};
  v.Pan(10.0);  // 10 px = 100 ns
  EXPECT_EQ(v.visible, (TimeRange{-100, 900}));
  v.Fit({5000, 5010});
  EXPECT_EQ(v.visible.duration_ns(), Viewport::kMinVisibleNs);
}

}  // namespace
}  // namespace stepline::ui
