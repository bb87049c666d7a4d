// A long session in one window: cycles of opening every format alone (each
// analysed), a comparison and a ranks view, headless (ViewerSession, as the
// window drives it). After each cycle the resident set must be back within
// 10% of its level after the first, and the open file descriptors and the
// threads must be as many as then. CI runs 20 cycles over small traces;
// STEPLINE_LONG_SESSION_CYCLES=300 is the run by hand (README, Performance).
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "app/gui/viewer_session.h"
#include "tests/app/process_levels.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

namespace stepline::app {
namespace {

using Level = ProcessLevel;

Level Measure() { return MeasureProcessLevel(); }

class LongSessionTest : public ::testing::Test {
 protected:
  bool Busy() const { return session_.loading() || session_.analysing() || session_.loading_ranks(); }
  // Polls until a poll made after the jobs ended leaves nothing running: a
  // job publishes its outcome before it stops running, so an outcome is
  // never left untaken.
  void Settle() {
    for (int i = 0; i < 6000; ++i) {
      session_.PollLoads();
      if (!Busy()) {
        session_.PollLoads();
        if (!Busy()) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_FALSE(Busy());
    ASSERT_TRUE(session_.error().empty()) << session_.error();
  }
  ViewerSession session_{RecentFiles("/dev/null/never")};
};

// The session runs in a fresh process (this test binary again, this test
// alone): after other tests in the same process (a shard) the arenas their
// threads left swing a 16 MB level by 2-4 MB, which would hide the session's.
TEST_F(LongSessionTest, ResidentSetFilesAndThreadsStayLevel) {
  if (std::getenv("STEPLINE_LONG_SESSION_CHILD") == nullptr) {
    const std::string command =
        "STEPLINE_LONG_SESSION_CHILD=1 /proc/" + std::to_string(::getpid()) +
        "/exe --gtest_filter=LongSessionTest.ResidentSetFilesAndThreadsStayLevel 2>&1";
    FILE* child = ::popen(command.c_str(), "r");
    ASSERT_NE(child, nullptr);
    std::string output;
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, child)) output.append(buf, n);
    const int status = ::pclose(child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output;
    const size_t line = output.find("long session:");
    if (line != std::string::npos) std::printf("%s", output.substr(line, output.find('\n', line) - line + 1).c_str());
    return;
  }
  // AddressSanitizer keeps freed memory in quarantine: the resident set then
  // says nothing about what the session holds.
  if (STEPLINE_TEST_ASAN) GTEST_SKIP() << "resident-set levels are meaningless under AddressSanitizer";
  const std::filesystem::path dir = MakeScratchDirRemovedAtExit("long-session");
  std::vector<std::string> files = {testing::TestDataPath("chrome_kineto_gpu.json"),
                                    testing::TestDataPath("chrome_tensorboard_gpu.json")};
  // A small real trace of each other format, when the shared traces are there.
  for (const char* relative : {"xprof/tpu_inference_2.xplane.pb", "nsys/mock.sqlite",
                               "hta/trace_filter_sampled_rank-0.json.gz"}) {
    const std::string path = testing::SharedTracesDir().empty() ? "" : testing::SharedTracePath(relative);
    if (!path.empty() && std::filesystem::exists(path)) files.push_back(path);
  }
  // Two ranks: copies of one Kineto trace.
  std::vector<std::string> ranks;
  for (int r = 0; r < 2; ++r) {
    ranks.push_back((dir / ("rank" + std::to_string(r) + ".json")).string());
    std::filesystem::copy_file(files[0], ranks.back());
  }
#if defined(__GLIBC__)
  // As main() does: one arena, so freed memory of the worker threads is not
  // kept in arenas of their own (the level measured is the session's).
  mallopt(M_ARENA_MAX, 1);
#endif
  const char* env = std::getenv("STEPLINE_LONG_SESSION_CYCLES");
  const int cycles = env != nullptr ? std::max(2, std::atoi(env)) : 20;
  Level first;
  uint64_t highest = 0;
  for (int cycle = 1; cycle <= cycles; ++cycle) {
    for (const std::string& f : files) {
      session_.OpenFile(f);
      ASSERT_NO_FATAL_FAILURE(Settle()) << f;
      ASSERT_TRUE(session_.state().data) << f;
    }
    session_.OpenCompare(files[0], files[1]);
    ASSERT_NO_FATAL_FAILURE(Settle());
    ASSERT_TRUE(session_.comparing());
    session_.OpenRanks(ranks, "ranks");
    ASSERT_NO_FATAL_FAILURE(Settle());
    ASSERT_TRUE(session_.showing_ranks());
    // Threads that were told to stop (cancelled analyses) end on their own.
    Level now = Measure();
    for (int i = 0; i < 200 && cycle > 1 && now.threads != first.threads; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      now = Measure();
    }
    if (std::getenv("STEPLINE_LONG_SESSION_VERBOSE") != nullptr) {
      std::printf("cycle %d: %.2f MB resident, %zu fds, %zu threads\n", cycle, double(now.rss) / 1e6, now.fds,
                  now.threads);
    }
    if (cycle == 1) {
      first = now;
      continue;
    }
    highest = std::max(highest, now.rss);
    EXPECT_LE(now.rss, first.rss + first.rss / 10) << "cycle " << cycle << ": " << now.rss << " B resident, "
                                                    << first.rss << " B after the first";
    EXPECT_EQ(now.fds, first.fds) << "cycle " << cycle;
    EXPECT_EQ(now.threads, first.threads) << "cycle " << cycle;
    if (::testing::Test::HasFailure() && std::getenv("STEPLINE_LONG_SESSION_VERBOSE") == nullptr) break;
  }
  std::printf("long session: %d cycles of %zu traces alone, a comparison and 2 ranks; resident %.1f MB after the "
              "first, at most %.1f MB after the others; %zu fds, %zu threads\n",
              cycles, files.size(), double(first.rss) / 1e6, double(highest) / 1e6, first.fds, first.threads);
}

}  // namespace
}  // namespace stepline::app
