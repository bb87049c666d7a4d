// `report --json`'s per-op arithmetic_intensity and the ops CSV's column on
// the planted efficiency demo: FLOPs over the bytes of the inputs and the
// output at bf16's 2 bytes (docs/efficiency.md), null where the bytes are not
// known (an op without shapes, one that is not a matmul).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/cli/commands.h"
#include "tests/app/command_test_helpers.h"
#include "model/json_value.h"

namespace stepline::app {
namespace {

TEST(ArithmeticIntensityTest, ReportJsonGivesThePlantedMatmulsIntensity) {
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("arithmetic-intensity");
  const std::string trace = (dir / "eff.json").string();
  const RunOutput demo = RunCommand(RunDemo, {"efficiency", "--out", trace, "--steps", "4"});
  ASSERT_EQ(demo.code, 0) << demo.err;
  const RunOutput out = RunCommand(RunReport, {trace, "--json"});
  ASSERT_EQ(out.code, 0) << out.err;
  const auto json = ::stepline::ParseJson(out.out);
  ASSERT_TRUE(json);
  std::map<std::string, const ::stepline::JsonValue*> by_name;
  for (const auto& op : Member(*json, "ops").items) {
    if (Member(op, "kind").text == "host_op") by_name[Member(op, "name").text] = &op;
  }
  // linear: X [64,128,1024], W [4096,1024], bias [4096], output [8192,4096];
  // 2·8192·1024·4096 FLOPs over 2·(8388608 + 4194304 + 4096 + 33554432) bytes.
  const double want = 2.0 * 8192 * 1024 * 4096 / (2.0 * (8388608 + 4194304 + 4096 + 33554432.0));
  for (const char* name : {"aten::linear", "aten::addmm"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    const auto& ai = Member(*by_name[name], "arithmetic_intensity");
    ASSERT_FALSE(ai.is_null()) << name;
    EXPECT_NEAR(ai.AsDouble().value_or(0), want, 5e-4) << name;
    EXPECT_NE(out.out.find("\"arithmetic_intensity\":744.661"), std::string::npos);
  }
  // No shapes (aten::mm), and an elementwise op: unknown, never 0.
  for (const char* name : {"aten::mm", "aten::add_"}) {
    ASSERT_TRUE(by_name.count(name)) << name;
    EXPECT_TRUE(Member(*by_name[name], "arithmetic_intensity").is_null()) << name;
  }
}

}  // namespace
}  // namespace stepline::app
