// Column cache invalidation: a changed trace (touched, truncated, rewritten),
// a damaged cache file (cut at 20 offsets, bytes flipped) and a file of
// another version are each detected, deleted and rebuilt, with the same
// answers as a parse; and two processes opening one trace at once both
// succeed while one of them writes the entry.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "loaders/column_cache/cache_file.h"
#include "loaders/column_cache/trace_cache.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "loaders/load.h"
#include "tests/loaders/column_cache_test_util.h"
#include "tests/support/file_bytes.h"

namespace stepline {
namespace {

using column_cache::CacheOutcome;
using testing::ExpectSameTrace;
using testing::ReadFileBytes;
using testing::ScratchDir;
using testing::TestCacheSettings;

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class ColumnCacheInvalidation : public ::testing::Test {
 protected:
  void SetUp() override {
    settings_ = TestCacheSettings(dir_ / "cache");
    demo::DemoOptions options;
    options.steps = 2;
    auto demo = demo::GenerateDemoTrace(options);
    ASSERT_TRUE(demo.ok());
    trace_path_ = dir_ / "trace.json";
    WriteAll(trace_path_, exports::ChromeJsonText(*demo));
    cache_path_ = column_cache::CacheFilePath(settings_, trace_path_);
  }

  // Opens the trace through the cache, stores when asked, and checks the
  // model against a parse of the file as it is now.
  CacheOutcome Open(const std::string& what) {
    column_cache::CachedLoad info;
    auto loaded = column_cache::LoadThroughCache(trace_path_, settings_, {}, nullptr, &info);
    EXPECT_TRUE(loaded.ok()) << what;
    if (!loaded.ok()) return info.outcome;
    auto fresh = loaders::LoadFile(trace_path_);
    EXPECT_TRUE(fresh.ok());
    if (fresh.ok()) ExpectSameTrace(*fresh, *loaded, what);
    std::string error;
    EXPECT_TRUE(column_cache::Store(*loaded, info.ticket, settings_, &error)) << error;
    if (info.outcome == CacheOutcome::kRejected) {
      EXPECT_FALSE(info.reject_reason.empty());
    }
    return info.outcome;
  }

  // Fills the cache, then returns its file's bytes.
  std::string FilledCache() {
    Open("fill");
    EXPECT_EQ(Open("hit"), CacheOutcome::kHit);
    return ReadFileBytes(cache_path_);
  }

  ScratchDir dir_;
  column_cache::CacheSettings settings_;
  std::string trace_path_, cache_path_;
};

TEST_F(ColumnCacheInvalidation, TouchedTrace) {
  FilledCache();
  struct timespec times[2] = {{0, UTIME_OMIT}, {1'700'000'000, 5}};
  ASSERT_EQ(utimensat(AT_FDCWD, trace_path_.c_str(), times, 0), 0);
  EXPECT_EQ(Open("touched"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

TEST_F(ColumnCacheInvalidation, TruncatedTrace) {
  FilledCache();
  const std::string json = ReadFileBytes(trace_path_);
  WriteAll(trace_path_, json.substr(0, json.size() * 2 / 3));
  EXPECT_EQ(Open("truncated"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

// Same size and mtime, other bytes: only the edge hash can tell.
TEST_F(ColumnCacheInvalidation, RewrittenTraceWithSameSizeAndTime) {
  FilledCache();
  struct stat before {};
  ASSERT_EQ(stat(trace_path_.c_str(), &before), 0);
  std::string json = ReadFileBytes(trace_path_);
  const size_t pos = json.rfind("\"dur\":");
  ASSERT_NE(pos, std::string::npos);
  char& digit = json[pos + 6];
  ASSERT_TRUE(digit >= '1' && digit <= '9');
  digit = digit == '9' ? '8' : static_cast<char>(digit + 1);
  WriteAll(trace_path_, json);
  struct timespec times[2] = {{0, UTIME_OMIT}, before.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, trace_path_.c_str(), times, 0), 0);
  EXPECT_EQ(Open("rewritten"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

// The same where the edge hash cannot see it: the changed byte lies between
// the first and the last MiB. Only the status-change time (which no call
// restores) and the inode in the key tell; a model of the old bytes must
// never be served.
TEST_F(ColumnCacheInvalidation, RewrittenInTheMiddleWithSameSizeAndTime) {
  demo::DemoOptions options;
  options.steps = 40;
  auto demo = demo::GenerateDemoTrace(options);
  ASSERT_TRUE(demo.ok());
  std::string json = exports::ChromeJsonText(*demo);
  ASSERT_GT(json.size(), size_t{1} << 20) << "the change must lie past the first MiB";
  const size_t pos = json.rfind("\"dur\":");
  ASSERT_NE(pos, std::string::npos);
  ASSERT_GT(pos, size_t{1} << 20);
  json += std::string((size_t{1} << 20) + 4096, ' ');  // the last MiB: trailing white space
  WriteAll(trace_path_, json);
  FilledCache();
  struct stat before {};
  ASSERT_EQ(stat(trace_path_.c_str(), &before), 0);
  char& digit = json[pos + 6];
  ASSERT_TRUE(digit >= '1' && digit <= '9');
  digit = digit == '9' ? '8' : static_cast<char>(digit + 1);
  {
    // In place (same inode), as a profiler rewriting its output would.
    std::fstream out(trace_path_, std::ios::binary | std::ios::in | std::ios::out);
    out.seekp(static_cast<std::streamoff>(pos + 6));
    out.put(digit);
  }
  struct timespec times[2] = {{0, UTIME_OMIT}, before.st_mtim};
  ASSERT_EQ(utimensat(AT_FDCWD, trace_path_.c_str(), times, 0), 0);
  struct stat after {};
  ASSERT_EQ(stat(trace_path_.c_str(), &after), 0);
  ASSERT_EQ(after.st_size, before.st_size);
  ASSERT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  EXPECT_EQ(Open("rewritten in the middle"), CacheOutcome::kRejected);  // Open compares with a fresh parse
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

TEST_F(ColumnCacheInvalidation, CacheFileCutAtTwentyOffsets) {
  const std::string good = FilledCache();
  ASSERT_GT(good.size(), 20000u);
  for (int i = 0; i < 20; ++i) {
    // Half in the header and index, half spread over the columns.
    const size_t cut = i < 10 ? static_cast<size_t>(i) * 1000 : good.size() * static_cast<size_t>(i - 9) / 11;
    SCOPED_TRACE("cut at " + std::to_string(cut));
    WriteAll(cache_path_, good.substr(0, cut));
    EXPECT_EQ(Open("cut cache"), CacheOutcome::kRejected);
    EXPECT_EQ(ReadFileBytes(cache_path_).size(), good.size()) << "rebuilt";
  }
}

TEST_F(ColumnCacheInvalidation, CacheFileWithFlippedBytes) {
  const std::string good = FilledCache();
  std::mt19937_64 rng(22);
  for (int i = 0; i < 20; ++i) {
    std::string bad = good;
    const size_t at = rng() % bad.size();
    bad[at] = static_cast<char>(bad[at] ^ (1 + rng() % 255));
    SCOPED_TRACE("byte " + std::to_string(at) + " flipped");
    WriteAll(cache_path_, bad);
    EXPECT_EQ(Open("flipped byte"), CacheOutcome::kRejected);
    EXPECT_EQ(ReadFileBytes(cache_path_).size(), good.size()) << "rebuilt";
  }
}

TEST_F(ColumnCacheInvalidation, OtherStepineVersionOrFormatVersion) {
  FilledCache();
  settings_.stepline_version = "another-version";
  EXPECT_EQ(Open("other Stepline version"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
  // The format version field (after the 8-byte magic), with the header
  // checksum left as it was: refused before anything else is read.
  std::string bytes = ReadFileBytes(cache_path_);
  const uint32_t other = column_cache::kFormatVersion + 1;
  std::memcpy(bytes.data() + 8, &other, sizeof other);
  WriteAll(cache_path_, bytes);
  column_cache::TraceKey key;
  ASSERT_TRUE(column_cache::ComputeKey(trace_path_, &key));
  auto read = column_cache::ReadCacheFile(cache_path_, key, settings_.stepline_version);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().find("format version"), std::string::npos) << read.error();
  EXPECT_EQ(Open("other format version"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

TEST_F(ColumnCacheInvalidation, NotACacheFile) {
  FilledCache();
  WriteAll(cache_path_, std::string(20000, 'x'));
  EXPECT_EQ(Open("garbage"), CacheOutcome::kRejected);
  EXPECT_EQ(Open("rebuilt"), CacheOutcome::kHit);
}

// Two processes open the same uncached trace at the same moment: both parse,
// both write (each to its own temporary, renamed into place), neither fails,
// and the entry left behind is valid.
TEST_F(ColumnCacheInvalidation, TwoProcessesAtOnce) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t children[2];
  for (pid_t& child : children) {
    child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      char go;
      if (read(ready[0], &go, 1) != 1) _exit(3);
      column_cache::CachedLoad info;
      auto loaded = column_cache::LoadThroughCache(trace_path_, settings_, {}, nullptr, &info);
      if (!loaded.ok()) _exit(1);
      std::string error;
      if (!column_cache::Store(*loaded, info.ticket, settings_, &error)) _exit(2);
      _exit(0);
    }
  }
  ASSERT_EQ(write(ready[1], "gg", 2), 2);  // both start together
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  close(ready[0]);
  close(ready[1]);
  EXPECT_EQ(Open("after two writers"), CacheOutcome::kHit);
  size_t leftovers = 0;
  for (const auto& de : std::filesystem::directory_iterator(settings_.dir)) leftovers += de.path() != cache_path_;
  EXPECT_EQ(leftovers, 0u) << "no temporary left behind";
}

}  // namespace
}  // namespace stepline
