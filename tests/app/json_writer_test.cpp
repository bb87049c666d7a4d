// JsonWriter: commas and nesting come out right however values are mixed.
#include "app/output/json_writer.h"

#include <gtest/gtest.h>

#include <limits>

namespace stepline::app {
namespace {

TEST(JsonWriterTest, NestsObjectsAndArraysWithCommas) {
  JsonWriter json;
  json.BeginObject().Field("a", uint64_t{1}).Key("b").BeginObject().Field("c", "x\"y").EndObject();
  json.Key("d").BeginArray().Int(-2).Null().BeginObject().EndObject().EndArray();
  json.FieldFixed("e", 1.23456, 3).EndObject();
  EXPECT_TRUE(json.complete());
  EXPECT_EQ(json.text(), R"({"a":1,"b":{"c":"x\"y"},"d":[-2,null,{}],"e":1.235})");
}

TEST(JsonWriterTest, NonFiniteNumbersBecomeNull) {
  JsonWriter json;
  json.BeginArray().Fixed(std::numeric_limits<double>::quiet_NaN(), 1).Fixed(1.0 / 0.0, 1).EndArray();
  EXPECT_EQ(json.text(), "[null,null]");
}

}  // namespace
}  // namespace stepline::app
