// The code says why it is as it is today; its history is in git log. No
// source file, header, CMake file, script or folder note of the product or its tests
// cites an issue number or a numbered work session (the docs have their own
// check, ReadmeTest.NoDiaryInProductDocs). Another project's issue, such as
// pytorch/pytorch#123 or HTA#290, is a reference, not a diary entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
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

bool NoDiaryWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool NoDiaryDigit(const std::string& s, size_t i) { return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0; }

// Where `lower` (the file's text, lowercased) cites an issue number (the
// word issue or issues, a space, '#' and a digit; not after a letter or '/',
// which makes it another project's reference) or a numbered work session
// (session or sitting as a whole word, a space and a digit). A plain scan:
// std::regex took seconds over the tree, most of this test's time under the
// sanitizers. The examples below are spelled in pieces so this file passes.
std::vector<std::pair<size_t, const char*>> NoDiaryFindings(const std::string& lower) {
  std::vector<std::pair<size_t, const char*>> found;
  for (size_t at = lower.find("issue"); at != std::string::npos; at = lower.find("issue", at + 1)) {
    if (at > 0 && (NoDiaryWordChar(lower[at - 1]) || lower[at - 1] == '/')) continue;
    size_t i = at + 5;
    if (i < lower.size() && lower[i] == 's') ++i;
    if (lower.compare(i, 2, " #") == 0 && NoDiaryDigit(lower, i + 2)) found.emplace_back(at, "an issue number");
  }
  for (const char* word : {"session ", "sitting "}) {
    for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
      if (at > 0 && NoDiaryWordChar(lower[at - 1])) continue;
      if (NoDiaryDigit(lower, at + 8)) found.emplace_back(at, "a numbered work session");
    }
  }
  return found;
}

TEST(NoDiaryTest, TheScanFindsWhatItLooksFor) {
  const auto count = [](const std::string& text) { return NoDiaryFindings(text).size(); };
  const std::string issue = "issue", session = "session", sitting = "sitting";
  EXPECT_EQ(count("fixed in " + issue + " #12"), 1u);
  EXPECT_EQ(count("(" + issue + "s #3 and #4)"), 1u);
  EXPECT_EQ(count("as said in " + session + " 4, and " + sitting + " 2"), 2u);
  EXPECT_EQ(count(issue + " #x, t" + issue + " #1, pytorch/" + issue + "s #5, hta#290, " + session + " one, ob" +
                  session + " 3"),
            0u);
}

TEST(NoDiaryTest, NoIssueNumbersOrWorkSessionsInCode) {
  const std::vector<fs::path> files = CodeFiles();
  ASSERT_GT(files.size(), 300u) << "the walk found too few files under " << STEPLINE_SOURCE_DIR;
  for (const fs::path& path : files) {
    const std::string text = ::stepline::testing::ReadFileBytes(path.string());
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    for (const auto& [offset, what] : NoDiaryFindings(lower)) {
      const auto at = text.begin() + static_cast<ptrdiff_t>(offset);
      const auto line_start = std::find(std::make_reverse_iterator(at), text.rend(), '\n').base();
      const auto line_end = std::find(at, text.end(), '\n');
      ADD_FAILURE() << fs::relative(path, STEPLINE_SOURCE_DIR).string() << ":"
                    << 1 + std::count(text.begin(), at, '\n') << " has " << what << ": "
                    << std::string(line_start, line_end);
    }
  }
}

}  // namespace
}  // namespace stepline::app
