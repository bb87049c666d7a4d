// Under an address-space limit (ulimit -v) `stepline info` either loads the
// trace or fails with exit 1 and a message saying it ran out of memory and
// what the trace needs; it never ends in a signal (std::bad_alloc escaping
// a thread or main() is SIGABRT). One child process per limit, for a demo
// Chrome JSON trace, its gzip, and a small real trace of each other format.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/commands.h"
#include "tests/app/command_test_helpers.h"
#include "tests/support/test_traces.h"

// Built with AddressSanitizer (GCC defines the first, clang has the feature).
#if defined(__SANITIZE_ADDRESS__)
#define STEPLINE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STEPLINE_TEST_ASAN 1
#endif
#endif
#ifndef STEPLINE_TEST_ASAN
#define STEPLINE_TEST_ASAN 0
#endif

namespace stepline::app {
namespace {

struct ChildResult {
  bool exited = false;  // false: ended by a signal
  int code = -1;        // exit code, or the signal
  std::string err;
};

// `stepline ARGS` with RLIMIT_AS at `limit_mb`, its stderr kept.
ChildResult RunLimited(const std::vector<std::string>& args, uint64_t limit_mb, const std::filesystem::path& dir) {
  const std::string err_path = (dir / "stderr.txt").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit limit{limit_mb << 20, limit_mb << 20};
    ::setrlimit(RLIMIT_AS, &limit);
    if (std::freopen(err_path.c_str(), "w", stderr) == nullptr || std::freopen("/dev/null", "w", stdout) == nullptr) {
      ::_exit(120);
    }
    std::vector<char*> argv{const_cast<char*>(STEPLINE_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(STEPLINE_BINARY, argv.data());
    ::_exit(121);  // the limit was too small to start the binary at all
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ChildResult r;
  r.exited = WIFEXITED(status);
  r.code = r.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  r.err = ReadFile(err_path);
  return r;
}

// Every limit: exit 0, or exit 1 saying what ran out; never a signal.
// Returns how many limits ended in "out of memory".
int ExpectNoSignal(const std::string& trace, const std::vector<uint64_t>& limits_mb, const std::filesystem::path& dir) {
  int out_of_memory = 0;
  for (const uint64_t mb : limits_mb) {
    SCOPED_TRACE(trace + " under " + std::to_string(mb) + " MB");
    const ChildResult r = RunLimited({"info", "--no-cache", trace}, mb, dir);
    EXPECT_TRUE(r.exited) << "ended by signal " << r.code << "; stderr:\n" << r.err;
    if (!r.exited) continue;
    if (r.code == 121 || r.code == 127 || r.code == 0) continue;  // did not start (exec, ld.so) / loaded
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("out of memory"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("needs about"), std::string::npos) << r.err;
    ++out_of_memory;
  }
  return out_of_memory;
}

// From about what the process needs to start to over a load's peak.
const std::vector<uint64_t> kLimitsMb{32, 48, 64, 72, 80, 96, 128, 192};

class MemoryLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // The sanitizer build's stepline reserves terabytes of shadow address
    // space at start, which no RLIMIT_AS leaves room for.
    if (STEPLINE_TEST_ASAN) GTEST_SKIP() << "AddressSanitizer cannot start under an address-space limit";
    dir_ = MakeScratchDirRemovedAtExit("memory-limit");
  }
  std::filesystem::path dir_;
};

TEST_F(MemoryLimitTest, DemoChromeJsonAndItsGzipNeverEndInASignal) {
  const std::string json = (dir_ / "demo.json").string();
  const RunOutput made = RunCommand(RunDemo, {"small-batch", "--scale", "2", "--out", json});
  ASSERT_EQ(made.code, 0) << made.err;
  EXPECT_GT(ExpectNoSignal(json, kLimitsMb, dir_), 0) << "no limit made the load run out: the test tests nothing";
  const std::string gz = json + ".gz";
  ASSERT_EQ(std::system(("gzip -1 -c '" + json + "' > '" + gz + "'").c_str()), 0);
  ExpectNoSignal(gz, kLimitsMb, dir_);
}

TEST_F(MemoryLimitTest, RealTracesOfEachFormatNeverEndInASignal) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* relative : {"rocprof/rocprofv3_908_results.json.gz", "xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb",
                               "perfetto/scrolling_with_blocked_nonblocked_frames.pftrace", "nsys/h100_2gpu_1s.sqlite"}) {
    const std::string path = testing::SharedTracePath(relative);
    if (!std::filesystem::exists(path)) continue;
    ExpectNoSignal(path, {28, 36, 44, 52, 64}, dir_);
  }
}

// `stepline ranks` and `diff` say at the start when the traces they load at
// once look larger than the memory left: two 12 MB traces (about 84 MB
// loaded together) under an 80 MB limit. The load then fails or not, never
// in a signal.
TEST_F(MemoryLimitTest, RanksAndDiffSayAtTheStartWhenWhatTheyHoldAtOnceLooksTooLarge) {
  const std::filesystem::path ranks = dir_ / "ranks";
  std::filesystem::create_directories(ranks);
  for (int r = 0; r < 2; ++r) {
    std::ofstream out(ranks / ("rank" + std::to_string(r) + ".json"), std::ios::trunc);
    out << R"({"traceEvents":[{"ph":"X","name":")" << std::string(size_t{12} << 20, 'x')
        << R"(","ts":0,"dur":5,"pid":1,"tid":1}]})";
  }
  const ChildResult r = RunLimited({"ranks", "--threads", "2", ranks.string()}, 80, dir_);
  ASSERT_TRUE(r.exited) << "ended by signal " << r.code << "; stderr:\n" << r.err;
  ASSERT_NE(r.code, 121) << "did not start under the limit";
  EXPECT_EQ(r.err.rfind("stepline ranks: warning: " + ranks.string() + ": the 2 ranks loaded at once need about ", 0),
            0u)
      << r.err;
  EXPECT_NE(r.err.find("2 rank files at once: 12 MB of chrome-json + 12 MB of chrome-json"), std::string::npos)
      << r.err;
  // `stepline diff` holds both traces at once: their sum, said at the start.
  const std::string a = (ranks / "rank0.json").string(), b = (ranks / "rank1.json").string();
  const ChildResult d = RunLimited({"diff", a, b}, 80, dir_);
  ASSERT_TRUE(d.exited) << "ended by signal " << d.code << "; stderr:\n" << d.err;
  const std::string said = "stepline diff: warning: " + a + " and " + b + ": the two traces loaded at once need about ";
  EXPECT_EQ(d.err.rfind(said, 0), 0u) << d.err;
  // `stepline screenshot` says the same at the start, before any window: a
  // compare pair's sum, and a rank set's ranks loaded at once (one per core).
  const std::string png = (dir_ / "shot.png").string();
  const ChildResult s = RunLimited({"screenshot", a, b, "--view", "compare", "--out", png}, 80, dir_);
  ASSERT_TRUE(s.exited) << "ended by signal " << s.code << "; stderr:\n" << s.err;
  // (Each file was said alone first, when it was chosen.)
  EXPECT_NE(s.err.find("stepline screenshot: warning: " + a + " and " + b + ": the two traces loaded at once need about "),
            std::string::npos)
      << s.err;
  EXPECT_LT(s.err.find("warning: " + a + " and "), s.err.find("stepline screenshot: " + a + ": byte")) << "before the load";
  if (std::thread::hardware_concurrency() >= 2) {
    const ChildResult sr = RunLimited({"screenshot", ranks.string(), "--view", "ranks", "--out", png}, 80, dir_);
    ASSERT_TRUE(sr.exited) << "ended by signal " << sr.code << "; stderr:\n" << sr.err;
    EXPECT_EQ(sr.err.rfind("stepline screenshot: warning: " + ranks.string() + ": the 2 ranks loaded at once need about ", 0),
              0u)
        << sr.err;
  }
}

}  // namespace
}  // namespace stepline::app
