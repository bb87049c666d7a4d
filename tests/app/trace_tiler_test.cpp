// TileChromeJson: copies do not overlap in time, fractions stay exact, only
// event-level "ts" moves, and the result is valid JSON of the requested size.
#include "app/cli/trace_tiler.h"

#include <gtest/gtest.h>

#include "model/json_value.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;

// Span 1000.5 .. 1100.5 us -> shift = ceil(100) + 1000 = 1100 us.
constexpr std::string_view kObjectForm = R"({"meta": {"traceEvents": 1},
 "traceEvents": [
  {"ph": "X", "name": "a", "ts": 1000.5, "dur": 100, "args": {"ts": 7}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "t[\"]"}},
  {"ph": "i", "name": "b", "ts": 1050.125},
 ],
 "traceName": "x"})";

TEST(TraceTilerTest, ShiftsEachCopyByTheSpanPlusOneMillisecond) {
  auto tiled = TileChromeJson(kObjectForm, 3 * kObjectForm.size());
  ASSERT_TRUE(tiled) << tiled.error();
  EXPECT_EQ(tiled->shift_us, 1100);
  EXPECT_EQ(tiled->ts_fields, 2u);
  EXPECT_GE(tiled->json.size(), 3 * kObjectForm.size());
  const auto json = ParseJson(tiled->json);
  ASSERT_TRUE(json.has_value()) << tiled->json;
  EXPECT_EQ(json->Keys(), (std::vector<std::string>{"meta", "traceEvents", "traceName"}));
  const auto& events = json->Find("traceEvents")->items;
  ASSERT_EQ(events.size(), 3u * tiled->copies);
  for (uint32_t copy = 0; copy < tiled->copies; ++copy) {
    const JsonValue& x = events[3 * copy];
    const JsonValue& instant = events[3 * copy + 2];
    // Integer digits move, the fraction is copied: exact, no float rounding.
    EXPECT_EQ(x.Find("ts")->text, std::to_string(1000 + 1100 * copy) + ".5");
    EXPECT_EQ(instant.Find("ts")->text, std::to_string(1050 + 1100 * copy) + ".125");
    EXPECT_EQ(x.Find("args")->Find("ts")->text, "7");  // inside args: not an event timestamp
  }
}

TEST(TraceTilerTest, ArrayFormAndExoticNumbers) {
  constexpr std::string_view kArrayForm = R"([{"ph":"X","ts":-5,"dur":10},{"ph":"X","ts":2e1,"dur":1}])";
  auto tiled = TileChromeJson(kArrayForm, 2 * kArrayForm.size());
  ASSERT_TRUE(tiled) << tiled.error();
  EXPECT_EQ(tiled->shift_us, 26 + 1000);  // span -5 .. 21
  const auto json = ParseJson(tiled->json);
  ASSERT_TRUE(json.has_value()) << tiled->json;
  ASSERT_EQ(json->items.size(), 2u * tiled->copies);
  EXPECT_EQ(json->items[2].Find("ts")->AsDouble(), -5.0 + 1026);
  EXPECT_EQ(json->items[3].Find("ts")->AsDouble(), 20.0 + 1026);
}

TEST(TraceTilerTest, OneCopyIsTheInputUnchanged) {
  auto tiled = TileChromeJson(kObjectForm, 1);
  ASSERT_TRUE(tiled);
  EXPECT_EQ(tiled->copies, 1u);
  // Only the trailing comma (and the space after it) of the event array is dropped.
  std::string expected(kObjectForm);
  expected.erase(expected.find("},\n ]") + 1, 3);
  EXPECT_EQ(tiled->json, expected);
}

TEST(TraceTilerTest, RejectsWhatItCannotTile) {
  EXPECT_EQ(TileChromeJson("\x0a\x03xyz", 10).error(), "not a Chrome-JSON trace (expected '{' or '[')");
  EXPECT_EQ(TileChromeJson(R"({"other": []})", 10).error(), "no \"traceEvents\" array found");
  EXPECT_EQ(TileChromeJson(R"({"traceEvents": [ ]})", 10).error(), "the event array is empty");
  EXPECT_EQ(TileChromeJson(R"({"traceEvents": [{"ts": 1})", 10).error(), "the event array is not terminated");
  EXPECT_EQ(TileChromeJson(R"([{"ph": "M"}])", 10).error(), "no event has a numeric \"ts\"");
}

}  // namespace
}  // namespace stepline::app
