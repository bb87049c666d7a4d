// The view history (Alt+Left / Alt+Right) and the W/S zoom curve: what makes
// an entry, what coalesces, and how a held key speeds up.
#include <gtest/gtest.h>

#include <cmath>

#include "ui/timeline/key_zoom.h"
#include "ui/timeline/zoom_history.h"

namespace stepline::ui {
namespace {

TimeRange HistView(TimeNs a, TimeNs b) { return TimeRange{a, b}; }

TEST(ZoomHistoryTest, JumpsAreOneEntryEachAndBackForwardWalkThem) {
  ZoomHistory h;
  TimeRange to;
  EXPECT_FALSE(h.Back(HistView(0, 100), &to)) << "nothing to go back to yet";
  h.BeforeChange(HistView(0, 100), ViewChange::kJump, 1.0);
  h.BeforeChange(HistView(10, 20), ViewChange::kJump, 1.1);
  EXPECT_EQ(h.back_size(), 2u);
  ASSERT_TRUE(h.Back(HistView(12, 14), &to));
  EXPECT_EQ(to, HistView(10, 20));
  ASSERT_TRUE(h.Back(to, &to));
  EXPECT_EQ(to, HistView(0, 100));
  EXPECT_FALSE(h.Back(to, &to));
  ASSERT_TRUE(h.Forward(HistView(0, 100), &to));
  EXPECT_EQ(to, HistView(10, 20));
  ASSERT_TRUE(h.Forward(to, &to));
  EXPECT_EQ(to, HistView(12, 14));
  EXPECT_FALSE(h.Forward(to, &to));
}

TEST(ZoomHistoryTest, ZoomStepsInARowAreOneEntry) {
  ZoomHistory h;
  // W W W (or three wheel notches) 0.1 s apart: one entry, the view before the first.
  h.BeforeChange(HistView(0, 1000), ViewChange::kZoomStep, 5.0);
  h.BeforeChange(HistView(100, 900), ViewChange::kZoomStep, 5.1);
  h.BeforeChange(HistView(200, 800), ViewChange::kZoomStep, 5.2);
  EXPECT_EQ(h.back_size(), 1u);
  TimeRange to;
  ASSERT_TRUE(h.Back(HistView(300, 700), &to));
  EXPECT_EQ(to, HistView(0, 1000));
  // A pause longer than kCoalesceSeconds starts a new entry.
  h.BeforeChange(HistView(0, 1000), ViewChange::kZoomStep, 10.0);
  h.BeforeChange(HistView(100, 900), ViewChange::kZoomStep, 10.0 + ZoomHistory::kCoalesceSeconds + 0.5);
  EXPECT_EQ(h.back_size(), 2u);
}

TEST(ZoomHistoryTest, AnotherKindOfChangeOrGoingBackEndsTheCoalescing) {
  ZoomHistory h;
  h.BeforeChange(HistView(0, 1000), ViewChange::kZoomStep, 1.0);
  h.BeforeChange(HistView(100, 900), ViewChange::kKeyPan, 1.1);  // A/D after W: its own entry
  h.BeforeChange(HistView(150, 950), ViewChange::kZoomStep, 1.2);
  EXPECT_EQ(h.back_size(), 3u);
  TimeRange to;
  ASSERT_TRUE(h.Back(HistView(200, 800), &to));
  h.BeforeChange(to, ViewChange::kZoomStep, 1.3);  // a step right after Back: a new entry
  EXPECT_EQ(h.back_size(), 3u);
  EXPECT_EQ(h.forward_size(), 0u) << "a new entry drops the forward list";
}

TEST(ZoomHistoryTest, DragsAreOneEntryAndNoEmptyOrRepeatedViews) {
  ZoomHistory h;
  h.BeforeChange(TimeRange{}, ViewChange::kJump, 0.0);  // before the first fit
  EXPECT_EQ(h.back_size(), 0u);
  h.BeforeChange(HistView(0, 10), ViewChange::kDrag, 1.0);
  h.BeforeChange(HistView(0, 10), ViewChange::kJump, 1.0);  // the same view again
  EXPECT_EQ(h.back_size(), 1u);
  for (int i = 0; i < 300; ++i) h.BeforeChange(HistView(i, i + 100), ViewChange::kJump, 2.0 + i);
  EXPECT_EQ(h.back_size(), ZoomHistory::kMaxEntries);
}

TEST(KeyZoomTest, ATapIsOneStepAndAShortHoldNoMore) {
  EXPECT_DOUBLE_EQ(KeyZoomFactor(0.0, 0.016), KeyZoomCurve::kTapFactor);
  EXPECT_DOUBLE_EQ(KeyZoomFactor(0.1, 0.016), 1.0);
  EXPECT_DOUBLE_EQ(KeyZoomFactor(KeyZoomCurve::kHoldDelay - 0.01, 0.1), 1.0);
}

TEST(KeyZoomTest, AHoldSpeedsUpThenLevelsOff) {
  EXPECT_DOUBLE_EQ(KeyZoomSpeed(0.25), KeyZoomCurve::kStartSpeed);
  EXPECT_DOUBLE_EQ(KeyZoomSpeed(1.0), 2.0 + 6.0 * 0.5);
  EXPECT_DOUBLE_EQ(KeyZoomSpeed(1.75), KeyZoomCurve::kTopSpeed);
  EXPECT_DOUBLE_EQ(KeyZoomSpeed(10.0), KeyZoomCurve::kTopSpeed);
  double last = 0;
  for (double h = 0.3; h < 3.0; h += 0.1) {
    const double f = KeyZoomFactor(h, 0.05);
    EXPECT_GE(f, last) << "never slower the longer it is held (h=" << h << ")";
    last = f;
  }
  // One second at top speed zooms 2^8 = 256x, whatever the frame rate.
  double at60 = 1, at5 = 1;
  for (int i = 0; i < 60; ++i) at60 *= KeyZoomFactor(3.0 + i / 60.0, 1 / 60.0);
  for (int i = 0; i < 5; ++i) at5 *= KeyZoomFactor(3.0 + i / 5.0, 1 / 5.0);
  EXPECT_NEAR(std::log2(at60), 8.0, 1e-9);
  EXPECT_NEAR(std::log2(at5), 8.0, 1e-9);
  // The first frame past the delay counts only the part after it.
  EXPECT_NEAR(std::log2(KeyZoomFactor(0.30, 0.10)), KeyZoomSpeed(0.30) * 0.05, 1e-9);
}

}  // namespace
}  // namespace stepline::ui
