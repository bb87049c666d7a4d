// The file dialog's logic without ImGui: which names look like traces, the
// listing order (folders by name, files newest first), narrowing by a typed
// name, `~`, Tab completion and what Enter does with a typed path.
#include "app/gui/file_listing.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace stepline::app {
namespace {
namespace fs = std::filesystem;

class FileListingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stepline-listing-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "runs");
    fs::create_directories(dir_ / "alpha");
    const auto now = fs::file_time_type::clock::now();
    Touch("old.json.gz", now - std::chrono::hours(48));
    Touch("new.pt.trace.json", now - std::chrono::hours(1));
    Touch("mid.xplane.pb", now - std::chrono::hours(5));
    Touch("notes.txt", now);
    Touch(".hidden.json", now);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Touch(const std::string& name, fs::file_time_type when) {
    std::ofstream(dir_ / name) << "[]";
    fs::last_write_time(dir_ / name, when);
  }
  std::string Dir() const { return dir_.string(); }
  fs::path dir_;
};

TEST(FileListing, TraceNames) {
  for (const char* name : {"a.json", "a.json.gz", "x.xplane.pb", "t.pftrace", "t.perfetto-trace", "r.json.zst",
                           "A.JSON.GZ"}) {
    EXPECT_TRUE(LooksLikeTraceFile(name)) << name;
  }
  for (const char* name : {"notes.txt", "a.png", "Makefile", "json"}) EXPECT_FALSE(LooksLikeTraceFile(name)) << name;
}

TEST_F(FileListingTest, FoldersByNameThenFilesNewestFirstHiddenSkipped) {
  const DirListing l = ListDirectory(Dir());
  ASSERT_TRUE(l.error.empty()) << l.error;
  std::vector<std::string> names;
  for (const FileEntry& e : l.entries) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "runs", "notes.txt", "new.pt.trace.json", "mid.xplane.pb",
                                             "old.json.gz"}));
  EXPECT_EQ(l.entries[3].size, 2u);
  EXPECT_GT(l.entries[3].mtime_s, l.entries[4].mtime_s);
}

TEST_F(FileListingTest, FilterKeepsFoldersAndTracesUnlessAllFiles) {
  const DirListing l = ListDirectory(Dir());
  EXPECT_EQ(FilterEntries(l.entries, "", false).size(), 5u) << "notes.txt is not a trace";
  EXPECT_EQ(FilterEntries(l.entries, "", true).size(), 6u);
  const auto m = FilterEntries(l.entries, "mi", false);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].name, "mid.xplane.pb");
}

TEST_F(FileListingTest, TypedPathsSplitAndExpandHome) {
  EXPECT_EQ(SplitTypedPath(Dir() + "/ru", "/elsewhere").dir, Dir());
  EXPECT_EQ(SplitTypedPath(Dir() + "/ru", "/elsewhere").prefix, "ru");
  EXPECT_EQ(SplitTypedPath("runs/x", Dir()).dir, Dir() + "/runs");
  EXPECT_EQ(SplitTypedPath("ne", Dir()).dir, Dir());
  EXPECT_EQ(SplitTypedPath("/", Dir()).dir, "/");
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0') {
    EXPECT_EQ(SplitTypedPath("~/x", Dir()).dir, std::string(home));
  }
}

TEST_F(FileListingTest, TabCompletesAsFarAsTheNamesAgree) {
  EXPECT_EQ(CompletePath(Dir() + "/r", "/", false), Dir() + "/runs/") << "one folder: with its slash";
  EXPECT_EQ(CompletePath(Dir() + "/n", "/", false), Dir() + "/new.pt.trace.json") << "notes.txt is filtered out";
  EXPECT_EQ(CompletePath(Dir() + "/n", "/", true), Dir() + "/n") << "new... and notes.txt agree on n only";
  EXPECT_EQ(CompletePath("mi", Dir(), false), "mid.xplane.pb") << "relative to the listed folder";
  EXPECT_EQ(CompletePath(Dir() + "/zz", "/", false), Dir() + "/zz") << "no match: unchanged";
}

TEST_F(FileListingTest, EnterOpensFoldersAndPicksFiles) {
  EnterAction a = ResolveEnter(Dir() + "/runs", "/");
  EXPECT_EQ(a.kind, EnterAction::Kind::kOpenFolder);
  EXPECT_EQ(a.path, Dir() + "/runs");
  a = ResolveEnter("old.json.gz", Dir());
  EXPECT_EQ(a.kind, EnterAction::Kind::kPickFile);
  EXPECT_EQ(a.path, Dir() + "/old.json.gz");
  EXPECT_EQ(ResolveEnter(Dir() + "/ol", "/").kind, EnterAction::Kind::kNone) << "a prefix is not a file";
  EXPECT_EQ(ResolveEnter("runs/../alpha/", Dir()).path, Dir() + "/alpha");
}

TEST(FileListing, SizesReadable) {
  EXPECT_EQ(FormatFileSize(812), "812 B");
  EXPECT_EQ(FormatFileSize(4'200), "4.2 KB");
  EXPECT_EQ(FormatFileSize(1'130'406), "1.1 MB");
  EXPECT_EQ(FormatFileSize(3'000'000'000), "3.0 GB");
}

}  // namespace
}  // namespace stepline::app
