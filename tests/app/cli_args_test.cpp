// The subcommands' argument parser: flags, both option spellings, and the
// errors that make a subcommand print its usage.
#include "app/cli/cli_args.h"

#include <gtest/gtest.h>

namespace stepline::app {
namespace {

const ArgSpec kSpec{{"--json"}, {"--repeat", "--tile-mb"}};

TEST(CliArgsTest, SplitsPositionalsFlagsAndOptions) {
  auto parsed = ParsedArgs::Parse({"trace.json", "--json", "--repeat", "3", "--tile-mb=512", "-"}, kSpec);
  ASSERT_TRUE(parsed) << parsed.error();
  EXPECT_EQ(parsed->positionals(), (std::vector<std::string>{"trace.json", "-"}));
  EXPECT_TRUE(parsed->Has("--json"));
  EXPECT_EQ(parsed->Value("--repeat"), "3");
  EXPECT_EQ(parsed->Value("--tile-mb"), "512");
  EXPECT_EQ(parsed->IntValue("--tile-mb", 0, 1, 1000).value(), 512);
}

TEST(CliArgsTest, DoubleDashEndsOptions) {
  auto parsed = ParsedArgs::Parse({"--", "--json"}, kSpec);
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->Has("--json"));
  EXPECT_EQ(parsed->positionals(), (std::vector<std::string>{"--json"}));
}

TEST(CliArgsTest, AbsentOptionGivesTheFallback) {
  auto parsed = ParsedArgs::Parse({"a"}, kSpec);
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->Value("--repeat").has_value());
  EXPECT_EQ(parsed->IntValue("--repeat", 5, 1, 10).value(), 5);
}

TEST(CliArgsTest, RejectsBadInputWithAMessageNamingIt) {
  EXPECT_EQ(ParsedArgs::Parse({"--color"}, kSpec).error(), "unknown option --color");
  EXPECT_EQ(ParsedArgs::Parse({"--repeat"}, kSpec).error(), "option --repeat needs a value");
  EXPECT_EQ(ParsedArgs::Parse({"--json=1"}, kSpec).error(), "flag --json takes no value");
  EXPECT_EQ(ParsedArgs::Parse({"--json", "--json"}, kSpec).error(), "option --json given twice");
  auto parsed = ParsedArgs::Parse({"--repeat", "2x", "--tile-mb", "0"}, kSpec);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->IntValue("--repeat", 5, 1, 10).error(), "--repeat expects an integer, got \"2x\"");
  EXPECT_EQ(parsed->IntValue("--tile-mb", 0, 1, 10).error(), "--tile-mb must be in [1, 10], got 0");
}

}  // namespace
}  // namespace stepline::app
