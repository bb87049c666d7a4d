// Files that change on disk while the window shows them: FileWatch sees a
// rewrite, a file growing and one removed, each once; the session offers
// Reload for the trace alone and for each changed side of a comparison, and
// Reload loads the new bytes. Driven without a window (the session's
// PollLoads), with the watch polling at every call.
#include "app/gui/file_watch.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/gui/viewer_session.h"

namespace stepline::app {
namespace {

std::string WriteWatchedTrace(const std::filesystem::path& path, int slices) {
  std::ofstream out(path, std::ios::trunc);
  out << "{\"traceEvents\":[";
  for (int i = 0; i < slices; ++i) {
    out << (i ? "," : "") << "{\"ph\":\"X\",\"name\":\"op" << i << "\",\"ts\":" << i * 10
        << ",\"dur\":5,\"pid\":1,\"tid\":1}";
  }
  out << "]}";
  return path.string();
}

class FileWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("stepline-file-watch-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  void Settle() {
    session_.PollLoads();
    for (int i = 0; i < 6000 && (session_.loading() || session_.analysing()); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      session_.PollLoads();
    }
    ASSERT_FALSE(session_.loading());
  }
  std::filesystem::path dir_;
  ViewerSession session_{RecentFiles("/dev/null/never")};
};

TEST_F(FileWatchTest, SeesGrowthRewriteAndRemovalOnce) {
  const std::string path = WriteWatchedTrace(dir_ / "t.json", 3);
  FileWatch watch(std::chrono::seconds(1));
  watch.Watch("", path);
  auto t = FileWatch::Clock::now() + std::chrono::seconds(5);
  EXPECT_TRUE(watch.Poll(t).empty());
  std::ofstream(path, std::ios::app) << "   ";  // a writer appending
  EXPECT_TRUE(watch.Poll(t + std::chrono::milliseconds(10)).empty()) << "stat()ed again within the interval";
  auto grew = watch.Poll(t += std::chrono::seconds(2));
  ASSERT_EQ(grew.size(), 1u);
  EXPECT_TRUE(grew[0].grew);
  EXPECT_EQ(ChangeNotice(grew), "t.json grew on disk: Reload to see the rest");
  EXPECT_TRUE(watch.Poll(t += std::chrono::seconds(2)).empty()) << "each change once";
  // A rerun writing a new file over it (same size, other inode).
  const std::string tmp = WriteWatchedTrace(dir_ / "t.json.new", 3);
  std::ofstream(tmp, std::ios::app) << "   ";
  std::filesystem::rename(tmp, path);
  auto rewritten = watch.Poll(t += std::chrono::seconds(2));
  ASSERT_EQ(rewritten.size(), 1u);
  EXPECT_FALSE(rewritten[0].grew);
  EXPECT_EQ(ChangeNotice(rewritten), "t.json changed on disk: Reload to see it");
  std::filesystem::remove(path);
  auto removed = watch.Poll(t += std::chrono::seconds(2));
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_TRUE(removed[0].removed);
}

TEST_F(FileWatchTest, PipesAndMissingFilesAreNotWatched) {
  FileWatch watch;
  watch.Watch("", "-");
  watch.Watch("A", (dir_ / "missing.json").string());
  EXPECT_TRUE(watch.empty());
}

TEST_F(FileWatchTest, SessionOffersReloadForTheTraceAndLoadsTheNewBytes) {
  session_.SetWatchInterval(std::chrono::seconds(0));
  const std::string path = WriteWatchedTrace(dir_ / "run.json", 3);
  session_.OpenFile(path);
  Settle();
  ASSERT_TRUE(session_.state().data);
  EXPECT_TRUE(session_.reload_offer().empty());
  WriteWatchedTrace(path, 7);  // a rerun writes over it
  session_.PollLoads();
  ASSERT_EQ(session_.reload_offer().size(), 1u);
  EXPECT_EQ(session_.reload_offer()[0].label, "");
  EXPECT_EQ(session_.state().data->trace->slices().size(), 3u) << "nothing changes before Reload";
  session_.Reload();
  EXPECT_TRUE(session_.reload_offer().empty());
  Settle();
  ASSERT_TRUE(session_.state().data);
  EXPECT_EQ(session_.state().data->trace->slices().size(), 7u);
}

TEST_F(FileWatchTest, SessionOffersReloadForEachChangedSideOfACompare) {
  session_.SetWatchInterval(std::chrono::seconds(0));
  const std::string a = WriteWatchedTrace(dir_ / "a.json", 3);
  const std::string b = WriteWatchedTrace(dir_ / "b.json", 5);
  session_.OpenCompare(a, b);
  Settle();
  ASSERT_TRUE(session_.comparing());
  WriteWatchedTrace(b, 9);
  session_.PollLoads();
  ASSERT_EQ(session_.reload_offer().size(), 1u);
  EXPECT_EQ(session_.reload_offer()[0].label, "B");
  session_.Reload();
  Settle();
  ASSERT_TRUE(session_.comparing());
  EXPECT_EQ(session_.compare_view().state(0).data->trace->slices().size(), 3u);
  EXPECT_EQ(session_.compare_view().state(1).data->trace->slices().size(), 9u);
}

}  // namespace
}  // namespace stepline::app
