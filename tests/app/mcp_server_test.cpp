// `stepline mcp` as a client sees it: a scripted session (initialize,
// notifications/initialized, ping, tools/list, every tool, a bad call) run
// through McpServer::Handle and once through the real binary's stdio; each
// report tool's structuredContent has the same keys and values as `stepline
// report --json`, compare's as `diff --json`, query's as `query --json`;
// bad paths and arguments are error results, unknown methods and tools
// JSON-RPC errors; traces stay loaded between calls.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/cli/commands.h"
#include "app/mcp/mcp_server.h"
#include "demo/demo_generator.h"
#include "model/json_value.h"
#include "tests/app/command_test_helpers.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

class McpServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new std::filesystem::path(MakeScratchDir("stepline-mcp-test"));
    WriteDemoJson("input-bound", demo::DemoStyle::kPyTorch, Path("a.json"));
    WriteDemoJson("baseline", demo::DemoStyle::kPyTorch, Path("b.json"));
  }
  static void TearDownTestSuite() {
    std::filesystem::remove_all(*dir_);
    delete dir_;
  }
  static std::string Path(const char* name) { return (*dir_ / name).string(); }

  JsonValue Call(const std::string& request) {
    const auto answer = server_.Handle(request);
    EXPECT_TRUE(answer.has_value()) << request;
    auto json = ParseJson(answer.value_or(""));
    EXPECT_TRUE(json.has_value()) << *answer;
    EXPECT_EQ(answer->find('\n'), std::string::npos) << "one message, one line";
    return json.value_or(JsonValue{});
  }
  JsonValue Tool(const std::string& name, const std::string& arguments, int id = 7) {
    const JsonValue r = Call("{\"jsonrpc\":\"2.0\",\"id\":" + std::to_string(id) +
                             ",\"method\":\"tools/call\",\"params\":{\"name\":" + Quote(name) +
                             ",\"arguments\":" + arguments + "}}");
    EXPECT_EQ(Member(r, "id").text, std::to_string(id));
    return Member(r, "result");
  }

  McpServer server_;
  static inline std::filesystem::path* dir_ = nullptr;
};

JsonValue JsonOf(int (*command)(const Args&, std::ostream&, std::ostream&), const Args& args) {
  const RunOutput r = RunCommand(command, args);
  EXPECT_EQ(r.code, 0) << r.err;
  return ParseJson(r.out).value_or(JsonValue{});
}

// Two parsed JSON values are equal: same keys in the same order, same texts.
void ExpectSameToolJson(const JsonValue& a, const JsonValue& b, const std::string& where) {
  ASSERT_EQ(a.type, b.type) << where;
  EXPECT_EQ(a.text, b.text) << where;
  EXPECT_EQ(a.boolean, b.boolean) << where;
  ASSERT_EQ(a.items.size(), b.items.size()) << where;
  for (size_t i = 0; i < a.items.size(); ++i) ExpectSameToolJson(a.items[i], b.items[i], where + "[" + std::to_string(i) + "]");
  ASSERT_EQ(a.Keys(), b.Keys()) << where;
  for (size_t i = 0; i < a.members.size(); ++i) {
    ExpectSameToolJson(a.members[i].second, b.members[i].second, where + "." + a.members[i].first);
  }
}

TEST_F(McpServerTest, InitializeListPingAndNotifications) {
  const JsonValue init = Call(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}})");
  EXPECT_EQ(Member(init, "jsonrpc").text, "2.0");
  const JsonValue& result = Member(init, "result");
  EXPECT_EQ(Member(result, "protocolVersion").text, "2025-06-18");
  EXPECT_NE(Member(result, "capabilities").Find("tools"), nullptr);
  EXPECT_EQ(Member(Member(result, "serverInfo"), "name").text, "stepline");
  EXPECT_FALSE(server_.Handle(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").has_value());
  EXPECT_EQ(Member(Call(R"({"jsonrpc":"2.0","id":"p","method":"ping"})"), "result").type, JsonValue::Type::kObject);

  const JsonValue list = Member(Call(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"), "result");
  std::vector<std::string> names;
  for (const JsonValue& tool : Member(list, "tools").items) {
    names.push_back(Member(tool, "name").text);
    EXPECT_FALSE(Member(tool, "description").text.empty());
    EXPECT_EQ(Member(Member(tool, "inputSchema"), "type").text, "object");
  }
  EXPECT_EQ(names, (std::vector<std::string>{"summary", "steps", "ops", "kernels", "gaps", "memory", "findings",
                                             "compare", "ranks", "query"}));
}

TEST_F(McpServerTest, ReportToolsAnswerWithTheReportsKeysAndValues) {
  const JsonValue report = JsonOf(RunReport, {Path("a.json"), "--json"});
  const std::string args = "{\"path\":" + Quote(Path("a.json")) + ",\"limit\":100000}";
  for (const char* tool : {"summary", "steps", "ops", "kernels", "gaps", "memory", "findings"}) {
    SCOPED_TRACE(tool);
    const JsonValue r = Tool(tool, args);
    EXPECT_FALSE(Member(r, "isError").boolean);
    EXPECT_EQ(Member(Member(r, "content").items.at(0), "type").text, "text");
    const JsonValue& s = Member(r, "structuredContent");
    EXPECT_EQ(Member(s, "path").text, Path("a.json"));
    for (const auto& [key, value] : s.members) {
      if (key == "path" || key == "findings") continue;
      const JsonValue* expected = report.Find(key);
      ASSERT_NE(expected, nullptr) << key;
      ExpectSameToolJson(value, *expected, key);
    }
  }
  EXPECT_FALSE(Member(Member(Tool("findings", args), "structuredContent"), "findings").items.empty());
  // A limit cuts the list and says so.
  const JsonValue cut = Member(Tool("ops", "{\"path\":" + Quote(Path("a.json")) + ",\"limit\":2}"), "structuredContent");
  EXPECT_EQ(Member(cut, "ops").items.size(), 2u);
  EXPECT_TRUE(Member(cut, "truncated").boolean);
  EXPECT_EQ(server_.cache().loads(), 1u) << "one load for every call on the same file";
}

TEST_F(McpServerTest, CompareQueryAndRanksAnswerLikeTheirCommands) {
  const JsonValue diff = JsonOf(RunDiff, {Path("b.json"), Path("a.json"), "--json", "--top", "100"});
  const JsonValue c = Tool("compare", "{\"a\":" + Quote(Path("b.json")) + ",\"b\":" + Quote(Path("a.json")) + "}");
  EXPECT_FALSE(Member(c, "isError").boolean);
  ExpectSameToolJson(Member(c, "structuredContent"), diff, "compare");
  EXPECT_NE(Member(Member(c, "content").items.at(0), "text").text.find("verdict"), std::string::npos);

  const std::string sql = "SELECT name, count(*) FROM slice GROUP BY name ORDER BY 2 DESC, 1 LIMIT 5";
  const JsonValue q = Tool("query", "{\"path\":" + Quote(Path("a.json")) + ",\"sql\":" + Quote(sql) + "}");
  ExpectSameToolJson(Member(q, "structuredContent"), JsonOf(RunQuery, {Path("a.json"), sql, "--json"}), "query");
  const JsonValue capped = Tool("query", "{\"path\":" + Quote(Path("a.json")) + ",\"sql\":\"SELECT id FROM slice\",\"max_rows\":3}");
  EXPECT_EQ(Member(Member(capped, "structuredContent"), "rows").items.size(), 3u);

  // Two single-process traces are not a distributed run: an error result.
  const JsonValue ranks = Tool("ranks", "{\"paths\":[" + Quote(Path("a.json")) + "," + Quote(Path("b.json")) + "]}");
  EXPECT_EQ(ranks.Find("isError") != nullptr, true);
}

TEST_F(McpServerTest, BadCallsAreErrorsNotCrashes) {
  const auto is_error_result = [&](const std::string& tool, const std::string& args) {
    const JsonValue r = Tool(tool, args);
    EXPECT_TRUE(Member(r, "isError").boolean) << tool << " " << args;
    EXPECT_FALSE(Member(Member(r, "content").items.at(0), "text").text.empty());
  };
  is_error_result("summary", R"({"path":"/nonexistent/trace.json"})");
  is_error_result("summary", "{}");
  is_error_result("summary", R"({"path":42})");
  is_error_result("ops", "{\"path\":" + Quote(Path("a.json")) + ",\"limit\":-1}");
  is_error_result("summary", "{\"path\":" + Quote(dir_->string()) + "}");
  is_error_result("query", "{\"path\":" + Quote(Path("a.json")) + ",\"sql\":\"DELETE FROM slice\"}");
  is_error_result("query", "{\"path\":" + Quote(Path("a.json")) + ",\"sql\":\"SELECT nope\"}");
  is_error_result("compare", "{\"a\":" + Quote(Path("a.json")) + "}");
  is_error_result("ranks", R"({"paths":[]})");
  // Protocol errors.
  EXPECT_EQ(Member(Member(Call(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}})"),
                          "error"),
                   "code")
                .text,
            "-32602");
  EXPECT_EQ(Member(Member(Call(R"({"jsonrpc":"2.0","id":4,"method":"resources/list"})"), "error"), "code").text,
            "-32601");
  EXPECT_EQ(Member(Member(Call("{not json"), "error"), "code").text, "-32700");
  EXPECT_FALSE(server_.Handle("   ").has_value());
}

TEST_F(McpServerTest, TheBinaryServesASessionOnStdio) {
  const std::string script = (*dir_ / "session.jsonl").string();
  {
    std::ofstream out(script);
    out << R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"
        << "\n"
        << R"({"jsonrpc":"2.0","method":"notifications/initialized"})" << "\n"
        << R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})" << "\n"
        << "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"summary\",\"arguments\":{\"path\":"
        << Quote(Path("a.json")) << "}}}\n"
        << R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"gaps","arguments":{"path":"/no/such"}}})"
        << "\n";
  }
  const std::string command = std::string(STEPLINE_BINARY) + " mcp < " + script + " 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  EXPECT_EQ(::pclose(pipe), 0);
  std::vector<JsonValue> answers;
  size_t at = 0;
  for (size_t nl; (nl = output.find('\n', at)) != std::string::npos; at = nl + 1) {
    auto json = ParseJson(output.substr(at, nl - at));
    ASSERT_TRUE(json.has_value()) << output.substr(at, nl - at);
    answers.push_back(*json);
  }
  ASSERT_EQ(answers.size(), 4u) << output;
  EXPECT_EQ(Member(answers[0], "id").text, "1");
  EXPECT_EQ(Member(Member(answers[2], "result"), "isError").boolean, false);
  EXPECT_TRUE(Member(Member(answers[3], "result"), "isError").boolean);
}

}  // namespace
}  // namespace stepline::app
