// Ruler ticks (1-2-5 steps, unit switching) and duration formatting.
#include "ui/timeline/time_ruler.h"

#include <gtest/gtest.h>

namespace stepline::ui {
namespace {

TEST(TimeRulerTest, FormatsDurationsWithUnitsByMagnitude) {
  EXPECT_EQ(FormatDuration(0), "0 ns");
  EXPECT_EQ(FormatDuration(950), "950 ns");
  EXPECT_EQ(FormatDuration(1500), "1.500 \xC2\xB5s");
  EXPECT_EQ(FormatDuration(12'345'678), "12.35 ms");
  EXPECT_EQ(FormatDuration(2'000'000'000), "2.000 s");
  EXPECT_EQ(FormatDuration(-1500), "-1.500 \xC2\xB5s");
}

TEST(TimeRulerTest, TickLabelsFollowTheStepUnit) {
  EXPECT_EQ(FormatTickLabel(2'000'000, 1'000'000), "2 ms");
  EXPECT_EQ(FormatTickLabel(2'500'000, 500'000), "2.5 ms");
  EXPECT_EQ(FormatTickLabel(300, 100), "300 ns");
  EXPECT_EQ(FormatTickLabel(3'000'000'000, 1'000'000'000), "3 s");
}

TEST(TimeRulerTest, UnitsSwitchAsTheViewZooms) {
  for (auto [visible_ns, unit] : std::vector<std::pair<int64_t, std::string>>{
           {10'000'000'000, " s"}, {50'000'000, " ms"}, {50'000, "\xC2\xB5s"}, {500, " ns"}}) {
    Viewport v{{0, visible_ns}, 1000.0};
    const auto ticks = ComputeRulerTicks(v, 0, 100.0);
    ASSERT_FALSE(ticks.empty());
    size_t labelled = 0;
    for (const auto& t : ticks) {
      if (!t.major) continue;
      ++labelled;
      EXPECT_NE(t.label.find(unit), std::string::npos) << t.label << " for " << visible_ns;
    }
    // Labels at least 100 px apart over 1000 px: at most 11, and at least 2.
    EXPECT_GE(labelled, 2u);
    EXPECT_LE(labelled, 11u);
  }
}

TEST(TimeRulerTest, TicksAreRelativeToTheOriginAndInsideTheView) {
  Viewport v{{1'000'000'123, 1'000'001'123}, 500.0};  // 1 µs at a large absolute time
  const auto ticks = ComputeRulerTicks(v, 1'000'000'000, 50.0);
  ASSERT_FALSE(ticks.empty());
  for (const auto& t : ticks) {
    EXPECT_GE(t.t_ns, v.visible.start_ns);
    EXPECT_LE(t.t_ns, v.visible.end_ns);
    EXPECT_GE(t.x_px, 0.0);
    EXPECT_LE(t.x_px, 500.0);
  }
  EXPECT_EQ(ticks.front().t_ns % 10, 0);  // a round time since the origin
}

// Regression: the last label ran off the ruler's right end and was clipped.
TEST(TimeRulerTest, LabelsStayInsideTheRuler) {
  Viewport v{{0, 1'000'000}, 1000.0};
  const auto ticks = ComputeRulerTicks(v, 0, 110.0);
  std::vector<float> w(ticks.size(), 0.f);
  for (size_t i = 0; i < ticks.size(); ++i) w[i] = ticks[i].major ? 60.f : 0.f;
  const std::vector<double> x = PlaceRulerLabels(ticks, w, 1000.0, 3.0);
  ASSERT_EQ(x.size(), ticks.size());
  int drawn = 0;
  double prev_end = -1;
  for (size_t i = 0; i < ticks.size(); ++i) {
    if (!ticks[i].major) {
      EXPECT_LT(x[i], 0.0);
      continue;
    }
    if (x[i] < 0) continue;
    ++drawn;
    EXPECT_GE(x[i], 0.0);
    EXPECT_LE(x[i] + w[i], 1000.0);
    EXPECT_GT(x[i], prev_end) << "labels do not overlap";
    prev_end = x[i] + w[i];
  }
  EXPECT_GE(drawn, 5);
  // A tick 10 px from the end: its label goes left of the tick, whole.
  std::vector<RulerTick> end_ticks(2);
  end_ticks[0] = {0, 100.0, true, "a"};
  end_ticks[1] = {0, 990.0, true, "b"};
  const std::vector<double> end_x = PlaceRulerLabels(end_ticks, {60.f, 60.f}, 1000.0, 3.0);
  EXPECT_DOUBLE_EQ(end_x[0], 103.0);
  EXPECT_DOUBLE_EQ(end_x[1], 990.0 - 3.0 - 60.0);
  // Left of its tick it would touch the one before: left out.
  end_ticks[0].x_px = 900.0;
  EXPECT_LT(PlaceRulerLabels(end_ticks, {60.f, 60.f}, 1000.0, 3.0)[1], 0.0);
}

}  // namespace
}  // namespace stepline::ui
