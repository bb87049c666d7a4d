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

}  // namespace
}  // namespace stepline::ui
