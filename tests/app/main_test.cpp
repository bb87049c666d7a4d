// The `stepline` executable itself (STEPLINE_BINARY): dispatch, exit codes,
// and that `info --json` puts exactly one JSON object on stdout.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "model/json_value.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

struct Command {
  int code = -1;
  std::string out;  // stdout only; stderr goes to the test log
};

Command RunStepline(const std::string& args) {
  Command c;
  const std::string command = std::string("'") + STEPLINE_BINARY + "' " + args;
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return c;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) c.out.append(buf, n);
  const int status = pclose(pipe);
  c.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return c;
}

class MainTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::exists(STEPLINE_BINARY)) << "build the stepline target first: " << STEPLINE_BINARY;
  }
};

TEST_F(MainTest, VersionAndHelp) {
  const Command version = RunStepline("--version");
  EXPECT_EQ(version.code, 0);
  EXPECT_EQ(version.out.rfind("stepline ", 0), 0u) << version.out;
  const Command help = RunStepline("--help");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("stepline <command> [arguments]"), std::string::npos) << help.out;
  for (const char* command : {"info FILE", "bench FILE", "demo --list"}) {
    EXPECT_NE(help.out.find(command), std::string::npos) << command;
  }
}

TEST_F(MainTest, UnknownCommandExitsTwoWithUsageOnStderr) {
  const Command c = RunStepline("frobnicate 2>&1");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.out.find("unknown command 'frobnicate'"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("usage: stepline"), std::string::npos) << c.out;
  EXPECT_EQ(RunStepline("frobnicate 2>/dev/null").out, "");  // nothing on stdout
}

TEST_F(MainTest, InfoJsonIsOneObjectOnStdout) {
  const Command c = RunStepline("info --json '" + testing::TestDataPath("app_small.json") + "'");
  EXPECT_EQ(c.code, 0);
  const auto json = stepline::ParseJson(c.out);
  ASSERT_TRUE(json.has_value()) << c.out;
  EXPECT_EQ(json->type, stepline::JsonValue::Type::kObject);
}

TEST_F(MainTest, InfoOnAMissingFileExitsOne) {
  EXPECT_EQ(RunStepline("info /nonexistent/trace.json 2>/dev/null").code, 1);
}

}  // namespace
}  // namespace stepline::app
