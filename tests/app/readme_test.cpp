// README.md's snippets stay true: the `info --json` example is the real
// output for tests/data/app_small.json (load_ms aside), the `bench --json`
// example has the real keys, and every diagnostic code is documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/cli/commands.h"
#include "model/diagnostics.h"
#include "tests/support/file_bytes.h"
#include "tests/support/mini_json.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using ::stepline::testing::JsonValue;
using ::stepline::testing::ParseJson;

std::string ReadReadme() {
  return ::stepline::testing::ReadFileBytes(std::string(STEPLINE_SOURCE_DIR) + "/README.md");
}

// The ```json block that follows `marker` in README.md.
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
  const auto documented = ParseJson(JsonBlockAfter(ReadReadme(), "<!-- info-json-example -->"));
  ASSERT_TRUE(documented.has_value()) << "README's info --json example is missing or not JSON";
  std::ostringstream out, err;
  ASSERT_EQ(RunInfo({testing::TestDataPath("app_small.json"), "--json"}, out, err), 0) << err.str();
  const auto real = ParseJson(out.str());
  ASSERT_TRUE(real.has_value()) << out.str();
  ExpectSameJson(*documented, *real, "info", {"load_ms"}, /*compare_values=*/true);
}

TEST(ReadmeTest, BenchJsonExampleHasTheRealKeys) {
  const auto documented = ParseJson(JsonBlockAfter(ReadReadme(), "<!-- bench-json-keys -->"));
  ASSERT_TRUE(documented.has_value()) << "README's bench --json example is missing or not JSON";
  std::ostringstream out, err;
  ASSERT_EQ(RunBench({testing::TestDataPath("app_small.json"), "--json", "--repeat", "1"}, out, err), 0) << err.str();
  auto real = ParseJson(out.str());
  ASSERT_TRUE(real.has_value()) << out.str();
  // frame_total_ms appears only where a GL context exists (a display or
  // xvfb-run); the README documents it in prose.
  std::erase_if(real->members, [](const auto& m) { return m.first == "frame_total_ms"; });
  ExpectSameJson(*documented, *real, "bench", {}, /*compare_values=*/false);
}

TEST(ReadmeTest, EveryDiagnosticCodeIsDocumented) {
  const std::string readme = ReadReadme();
  for (int c = 0; c < kDiagCodeCount; ++c) {
    const std::string_view name = GetDiagCodeInfo(static_cast<DiagCode>(c)).name;
    EXPECT_NE(readme.find("| `" + std::string(name) + "` |"), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace stepline::app
