// Human units in the text outputs: magnitude picks the unit.
#include "app/output/text_format.h"

#include <gtest/gtest.h>

namespace stepline::app {
namespace {

TEST(TextFormatTest, CountsGetThousandsSeparators) {
  EXPECT_EQ(FormatCount(0), "0");
  EXPECT_EQ(FormatCount(999), "999");
  EXPECT_EQ(FormatCount(1000), "1,000");
  EXPECT_EQ(FormatCount(1234567), "1,234,567");
}

TEST(TextFormatTest, DurationsPickTheirUnit) {
  EXPECT_EQ(FormatDuration(850), "850 ns");
  EXPECT_EQ(FormatDuration(12'345), "12.35 \xC2\xB5s");  // one FormatDuration with the window
  EXPECT_EQ(FormatDuration(4'500'000), "4.500 ms");
  EXPECT_EQ(FormatDuration(2'601'000'000), "2.601 s");
  EXPECT_EQ(FormatDuration(-2'000), "-2.000 \xC2\xB5s");
}

TEST(TextFormatTest, BytesAreDecimal) {
  EXPECT_EQ(FormatBytes(512), "512 B");
  EXPECT_EQ(FormatBytes(1'400), "1.4 KB");
  EXPECT_EQ(FormatBytes(18'800'000), "18.8 MB");
  EXPECT_EQ(FormatBytes(1'070'000'000), "1.07 GB");
}

}  // namespace
}  // namespace stepline::app
