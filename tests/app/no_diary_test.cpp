// The code says why it is as it is today; its history is in git log. No
// source file, header, CMake file, script or folder note of the product or its tests
// cites an issue number or a numbered work session (the docs have their own
// check, ReadmeTest.NoDiaryInProductDocs). Another project's issue, such as
// pytorch/pytorch#123 or HTA#290, is a reference, not a diary entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/file_bytes.h"

namespace stepline::app {
namespace {

namespace fs = std::filesystem;

bool IsCodeFile(const fs::path& path) {
  static const std::vector<std::string> kExtensions = {".cpp", ".h", ".cmake", ".sh", ".py", ".proto",
                                                       ".vert", ".frag", ".tsv", ".md"};
  const std::string name = path.filename().string();
  if (name == "CMakeLists.txt" || name == "run") return true;
  return std::find(kExtensions.begin(), kExtensions.end(), path.extension().string()) != kExtensions.end();
}

// Every code file under the folders the product and its tests are made of.
std::vector<fs::path> CodeFiles() {
  const fs::path root = STEPLINE_SOURCE_DIR;
  std::vector<fs::path> files = {root / "CMakeLists.txt"};
  for (const char* folder : {"app", "model", "loaders", "sqlite", "export", "demo", "query", "ui", "shaders",
                             "assets", "cmake", "dist", "scripts", ".ci", "tests"}) {
    if (!fs::is_directory(root / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string relative = fs::relative(entry.path(), root).string();
      // Fuzz inputs are bytes, not text written by us.
      if (relative.starts_with("tests/fuzz/corpus") || relative.starts_with("tests/fuzz/regressions")) continue;
      if (entry.is_regular_file() && IsCodeFile(entry.path())) files.push_back(entry.path());
    }
  }
  return files;
}

TEST(NoDiaryTest, NoIssueNumbersOrWorkSessionsInCode) {
  const std::vector<fs::path> files = CodeFiles();
  ASSERT_GT(files.size(), 300u) << "the walk found too few files under " << STEPLINE_SOURCE_DIR;
  const std::vector<std::pair<std::regex, std::string>> diary = {
      {std::regex(R"((^|[^\w/])issues? #\d)", std::regex::icase), "an issue number"},
      {std::regex(R"(\b(session|sitting) \d)", std::regex::icase), "a numbered work session"},
  };
  for (const fs::path& path : files) {
    const std::string text = ::stepline::testing::ReadFileBytes(path.string());
    for (const auto& [pattern, what] : diary) {
      for (auto it = std::sregex_iterator(text.begin(), text.end(), pattern); it != std::sregex_iterator(); ++it) {
        const auto at = text.begin() + it->position();
        const auto line_start = std::find(std::make_reverse_iterator(at), text.rend(), '\n').base();
        const auto line_end = std::find(at, text.end(), '\n');
        ADD_FAILURE() << fs::relative(path, STEPLINE_SOURCE_DIR).string() << ":"
                      << 1 + std::count(text.begin(), at, '\n') << " has " << what << ": "
                      << std::string(line_start, line_end);
      }
    }
  }
}

}  // namespace
}  // namespace stepline::app
