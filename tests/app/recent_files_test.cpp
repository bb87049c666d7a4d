// RecentFiles: most recent first, no duplicates, bounded, persisted.
#include "app/gui/recent_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace stepline::app {
namespace {

TEST(RecentFilesTest, MostRecentFirstDeduplicatedAndPersisted) {
  const auto dir = std::filesystem::temp_directory_path() / ("stepline-recent-" + std::to_string(::getpid()));
  const std::string path = (dir / "sub" / "recent.txt").string();
  {
    RecentFiles recent(path);
    EXPECT_TRUE(recent.list().empty());
    recent.Add("/traces/a.json");
    recent.Add("/traces/b.json");
    recent.Add("/traces/a.json");
    ASSERT_EQ(recent.list().size(), 2u);
    EXPECT_EQ(recent.list()[0], "/traces/a.json");
    for (int i = 0; i < 20; ++i) recent.Add("/traces/x" + std::to_string(i) + ".json");
    EXPECT_EQ(recent.list().size(), RecentFiles::kMax);
  }
  RecentFiles again(path);  // read back from disk
  ASSERT_EQ(again.list().size(), RecentFiles::kMax);
  EXPECT_EQ(again.list()[0], "/traces/x19.json");
  std::filesystem::remove_all(dir);
}

// Saved through safe_write (temporary file, fsync, rename): no temporary
// file is left beside the list, and what is read back is whole.
TEST(RecentFilesTest, SavesAtomicallyWithoutLeftovers) {
  const auto dir = std::filesystem::temp_directory_path() / ("stepline-recent-atomic-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "recent.txt").string();
  RecentFiles recent(path);
  for (int i = 0; i < 30; ++i) recent.Add("/traces/t" + std::to_string(i) + ".json");
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
  EXPECT_EQ(RecentFiles(path).list(), recent.list());
  std::filesystem::remove_all(dir);
}

TEST(RecentFilesTest, UnwritableLocationIsNotAnError) {
  RecentFiles recent("/proc/stepline-cannot-write/recent.txt");
  recent.Add("/traces/a.json");  // must not throw or crash
  EXPECT_EQ(recent.list().size(), 1u);
}

}  // namespace
}  // namespace stepline::app
