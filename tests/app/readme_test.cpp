// The docs stay true and stay docs:
// - README.md is a front page: at most 250 lines, opening with the two
//   commands, naming the .deb and linking every doc;
// - no product doc (README.md, docs/*.md) reads like a diary: no issue
//   numbers, work sessions, dated rounds or lists of what was tried;
// - docs/cli.md lists every option that `stepline --help` and each
//   `stepline COMMAND --help` print (the real binary, STEPLINE_BINARY), in
//   that command's section;
// - docs/cli.md's `info --json` example is the real output for
//   tests/data/app_small.json (load_ms aside), its `bench --json` example has
//   the real keys, and docs/formats.md lists every diagnostic code.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "app/cli/commands.h"
#include "model/diagnostics.h"
#include "model/json_value.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using ::stepline::JsonValue;
using ::stepline::ParseJson;

// A file of the source tree, by its path from the root ("docs/cli.md").
std::string ReadDoc(const std::string& path) {
  return ::stepline::testing::ReadFileBytes(std::string(STEPLINE_SOURCE_DIR) + "/" + path);
}

// The ```json block that follows `marker` in a doc.
std::string JsonBlockAfter(const std::string& readme, const std::string& marker) {
  const size_t at = readme.find(marker);
  if (at == std::string::npos) return "";
  const size_t begin = readme.find("```json\n", at);
  const size_t end = readme.find("```", begin + 8);
  if (begin == std::string::npos || end == std::string::npos) return "";
  return readme.substr(begin + 8, end - begin - 8);
}

// Same keys in the same order at every level, and equal scalars, except the
// keys in `ignored` whose values vary from run to run.
void ExpectSameJson(const JsonValue& doc, const JsonValue& real, const std::string& where,
                    const std::vector<std::string>& ignored, bool compare_values) {
  ASSERT_EQ(doc.type, real.type) << where;
  if (doc.type == JsonValue::Type::kObject) {
    ASSERT_EQ(doc.Keys(), real.Keys()) << where;
    for (size_t i = 0; i < doc.members.size(); ++i) {
      const std::string& key = doc.members[i].first;
      if (std::find(ignored.begin(), ignored.end(), key) != ignored.end()) continue;
      ExpectSameJson(doc.members[i].second, real.members[i].second, where + "." + key, ignored, compare_values);
    }
  } else if (doc.type == JsonValue::Type::kArray) {
    ASSERT_EQ(doc.items.size(), real.items.size()) << where;
    for (size_t i = 0; i < doc.items.size(); ++i) {
      ExpectSameJson(doc.items[i], real.items[i], where + "[" + std::to_string(i) + "]", ignored, compare_values);
    }
  } else if (compare_values) {
    EXPECT_EQ(doc.text, real.text) << where;
  }
}

TEST(ReadmeTest, InfoJsonExampleMatches) {
  const auto documented = ParseJson(JsonBlockAfter(ReadDoc("docs/cli.md"), "<!-- info-json-example -->"));
  ASSERT_TRUE(documented.has_value()) << "docs/cli.md's info --json example is missing or not JSON";
  std::ostringstream out, err;
  ASSERT_EQ(RunInfo({testing::TestDataPath("app_small.json"), "--json"}, out, err), 0) << err.str();
  const auto real = ParseJson(out.str());
  ASSERT_TRUE(real.has_value()) << out.str();
  ExpectSameJson(*documented, *real, "info", {"load_ms"}, /*compare_values=*/true);
}

TEST(ReadmeTest, BenchJsonExampleHasTheRealKeys) {
  const auto documented = ParseJson(JsonBlockAfter(ReadDoc("docs/cli.md"), "<!-- bench-json-keys -->"));
  ASSERT_TRUE(documented.has_value()) << "docs/cli.md's bench --json example is missing or not JSON";
  std::ostringstream out, err;
  ASSERT_EQ(RunBench({testing::TestDataPath("app_small.json"), "--json", "--repeat", "1"}, out, err), 0) << err.str();
  auto real = ParseJson(out.str());
  ASSERT_TRUE(real.has_value()) << out.str();
  // frame_total_ms appears only where a GL context exists (a display or
  // xvfb-run); docs/cli.md documents it in prose.
  std::erase_if(real->members, [](const auto& m) { return m.first == "frame_total_ms"; });
  ExpectSameJson(*documented, *real, "bench", {}, /*compare_values=*/false);
}

TEST(ReadmeTest, EveryDiagnosticCodeIsDocumented) {
  const std::string formats = ReadDoc("docs/formats.md");
  for (int c = 0; c < kDiagCodeCount; ++c) {
    const std::string_view name = GetDiagCodeInfo(static_cast<DiagCode>(c)).name;
    EXPECT_NE(formats.find("| `" + std::string(name) + "` |"), std::string::npos) << name;
  }
}

// README.md answers "what is this, how do I run it, where are the details"
// in one screenful or so, and the details live in docs/.
TEST(ReadmeTest, ReadmeIsAFrontPage) {
  const std::string readme = ReadDoc("README.md");
  EXPECT_LE(std::count(readme.begin(), readme.end(), '\n'), 250)
      << "README.md is over 250 lines: move details to docs/";
  const size_t run = readme.find("./scripts/run.sh [TRACE]");
  const size_t test = readme.find("./scripts/test.sh");
  ASSERT_NE(run, std::string::npos);
  ASSERT_NE(test, std::string::npos);
  EXPECT_LT(run, 400u) << "README must open with the two commands";
  EXPECT_LT(run, test);
  EXPECT_NE(readme.find(".deb"), std::string::npos);
  for (const auto& entry : std::filesystem::directory_iterator(std::string(STEPLINE_SOURCE_DIR) + "/docs")) {
    if (entry.path().extension() != ".md") continue;
    const std::string link = "(docs/" + entry.path().filename().string() + ")";
    EXPECT_NE(readme.find(link), std::string::npos) << "README.md does not link " << link;
  }
}

// History belongs in git log; a doc says what is true now and why.
TEST(ReadmeTest, NoDiaryInProductDocs) {
  std::vector<std::string> docs = {"README.md"};
  for (const auto& entry : std::filesystem::directory_iterator(std::string(STEPLINE_SOURCE_DIR) + "/docs")) {
    if (entry.path().extension() == ".md") docs.push_back("docs/" + entry.path().filename().string());
  }
  ASSERT_GE(docs.size(), 8u) << "README.md and the seven docs/*.md";
  const std::vector<std::pair<std::regex, std::string>> diary = {
      {std::regex(R"(issues? #\d)", std::regex::icase), "an issue number"},
      {std::regex(R"(\b(session|sitting|round) \d)", std::regex::icase), "a numbered work session"},
      // A date in code or a quoted value is an identifier (MCP's protocol revision
      // "2025-06-18"), not the day something was measured.
      {std::regex(R"((^|[^`"\w-])20\d\d-\d\d-\d\d($|[^`"\w-]))"), "a date"},
      {std::regex(R"(tried and (dropped|not kept|reverted))", std::regex::icase), "a list of what was tried"},
      {std::regex(R"(\b(before|after) this (session|change|work)\b)", std::regex::icase),
       "a before/after of one change"},
  };
  for (const std::string& path : docs) {
    const std::string text = ReadDoc(path);
    for (const auto& [pattern, what] : diary) {
      for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it) {
        const auto at = text.begin() + it->position();
        const auto line_start = std::find(std::make_reverse_iterator(at), text.rend(), '\n').base();
        const auto line_end = std::find(at, text.end(), '\n');
        ADD_FAILURE() << path << ":" << 1 + std::count(text.begin(), at, '\n') << " has " << what << ": "
                      << std::string(line_start, line_end);
      }
    }
  }
}

// `stepline ARGS` run for real; stdout and stderr together (a command may
// print its usage on either).
std::string HelpOutput(const std::string& args) {
  const std::string command = std::string("'") + STEPLINE_BINARY + "' " + args + " 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  std::string text;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  pclose(pipe);
  return text;
}

// Every "--name" in `text`.
std::set<std::string> OptionsIn(const std::string& text) {
  std::set<std::string> options;
  const std::regex option(R"((^|[^-\w])(--[a-z][a-z0-9-]*))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), option); it != std::sregex_iterator(); ++it) {
    options.insert((*it)[2].str());
  }
  return options;
}

// The "## ... `stepline COMMAND` ..." section of docs/cli.md, up to the next
// "## " heading; "" when there is none.
std::string CliSection(const std::string& cli, const std::string& command) {
  std::istringstream lines(cli);
  std::string line, section;
  bool inside = false;
  while (std::getline(lines, line)) {
    if (line.starts_with("## ")) {
      if (inside) break;
      inside = line.find("`stepline " + command + "`") != std::string::npos;
    }
    if (inside) section += line + "\n";
  }
  return section;
}

TEST(ReadmeTest, CliDocListsEveryOption) {
  ASSERT_TRUE(std::filesystem::exists(STEPLINE_BINARY)) << "build the stepline target first: " << STEPLINE_BINARY;
  const std::string cli = ReadDoc("docs/cli.md");
  const std::string help = HelpOutput("--help");
  ASSERT_NE(help.find("commands:"), std::string::npos) << help;

  // The commands `stepline --help` lists ("  report FILE ...", "  view --ranks ..."),
  // with the options each of its lines names.
  // Lines "  --no-cache ..." are the program's own options.
  std::map<std::string, std::set<std::string>> commands;
  std::set<std::string> program_options;
  std::istringstream lines(help.substr(help.find("commands:")));
  std::string line;
  const std::regex command_line(R"(^  ([a-z]+)(\s.*)?$)");
  const std::regex program_option(R"(^  (--[a-z][a-z0-9-]*)\b.*$)");
  while (std::getline(lines, line) && !line.empty()) {
    std::smatch m;
    if (std::regex_match(line, m, command_line)) commands[m[1].str()].merge(OptionsIn(line));
    if (std::regex_match(line, m, program_option)) program_options.insert(m[1].str());
  }
  ASSERT_GE(commands.size(), 9u) << help;
  ASSERT_TRUE(program_options.contains("--no-cache")) << help;

  // The program's own options: anywhere in docs/cli.md.
  for (const std::string& option : program_options) {
    EXPECT_NE(cli.find("`" + option), std::string::npos) << "docs/cli.md does not list " << option;
  }
  // Each command's own --help, in its section.
  for (auto& [command, options] : commands) {
    const std::string usage = HelpOutput(command + " --help");
    EXPECT_NE(usage.find("stepline"), std::string::npos) << command << " --help printed nothing useful: " << usage;
    options.merge(OptionsIn(usage));
    options.erase("--help");
    const std::string section = CliSection(cli, command);
    ASSERT_FALSE(section.empty()) << "docs/cli.md has no \"## `stepline " << command << "`\" section";
    for (const std::string& option : options) {
      EXPECT_NE(section.find("`" + option), std::string::npos)
          << "docs/cli.md's section on `stepline " << command << "` does not list " << option;
    }
  }
}

}  // namespace
}  // namespace stepline::app
