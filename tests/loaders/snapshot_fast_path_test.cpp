// The pickle reader's fast path for device trace entries (pickle::FlatSink)
// must read a snapshot to exactly what the opcode loop reads: every instant,
// time, track and arg. Snapshots of every shape it takes or leaves
// (make_snapshots.py's mixed_p*.pickle, and the shared sample) are read both
// ways and compared; the counts show both ways were used.
#include <gtest/gtest.h>

#include <filesystem>

#include "loaders/torch_snapshot/snapshot_loader.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

using ::stepline::testing::ReadFileBytes;

std::string FileBytes(const std::string& path) { return ReadFileBytes(path); }
const std::string& MixedDir() { return ::stepline::testing::GeneratedSnapshotsDir(); }

// Every instant as one line: track, time, name and each arg.
std::vector<std::string> InstantLines(const Trace& t) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < t.instants().size(); ++i) {
    std::string line = std::string(t.str(t.tracks().name(t.instants().track()[i]))) + " " +
                       std::to_string(t.instants().ts_ns()[i]) + " " + std::string(t.str(t.instants().name()[i]));
    const ArgSetId set = t.instants().arg_set()[i];
    for (uint32_t r = t.args().set_begin(set); r < t.args().set_end(set); ++r) {
      const ArgValue v = t.args().value(r);
      line += " " + std::string(t.str(t.args().key()[r])) + "=" + std::to_string(static_cast<int>(v.type)) + ":" +
              (v.type == ArgType::kString ? std::string(t.str(v.as_string())) : std::to_string(v.bits));
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

void ExpectBothWaysAlike(const std::string& bytes, const std::string& what, uint64_t min_fast, uint64_t min_loop) {
  SCOPED_TRACE(what);
  SnapshotReadCounts fast_counts, loop_counts;
  auto fast = LoadTorchSnapshotBytesForTest(bytes, true, &fast_counts);
  auto loop = LoadTorchSnapshotBytesForTest(bytes, false, &loop_counts);
  ASSERT_TRUE(static_cast<bool>(fast)) << fast.error().ToString();
  ASSERT_TRUE(static_cast<bool>(loop)) << loop.error().ToString();
  EXPECT_EQ(loop_counts.fast_entries, 0u);
  EXPECT_EQ(fast_counts.fast_entries + fast_counts.loop_entries, loop_counts.loop_entries);
  EXPECT_GE(fast_counts.fast_entries, min_fast);
  EXPECT_GE(fast_counts.loop_entries, min_loop);
  const std::vector<std::string> a = InstantLines(*fast), b = InstantLines(*loop);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "instant " << i;
  EXPECT_EQ(fast->diagnostics().total(), loop->diagnostics().total());
}

TEST(SnapshotFastPathTest, ReadsWhatTheOpcodeLoopReadsAtEveryProtocol) {
  if (MixedDir().empty()) GTEST_SKIP() << "python3 is not available to generate snapshots";
  for (const char* name : {"mixed_p2.pickle", "mixed_p4.pickle", "mixed_p5.pickle"}) {
    // 2,500 entries a device: its first batch of 1,000, the rest of a batch
    // after an entry the fast path leaves, and every entry once the frame
    // dicts turn new go through the loop; the rest fast.
    ExpectBothWaysAlike(FileBytes(MixedDir() + "/" + name), name, 1000, 2500);
  }
}

TEST(SnapshotFastPathTest, SmallListsInBatchesOfTwoReadAlike) {
  if (MixedDir().empty()) GTEST_SKIP() << "python3 is not available to generate snapshots";
  for (const char* name : {"small_batched_p2.pickle", "small_batched_p4.pickle"}) {
    // Device 0's 9 entries: its first batch of two and a batch that meets a
    // frame dict for the first time go through the loop, most of the rest fast.
    ExpectBothWaysAlike(FileBytes(MixedDir() + "/" + name), name, 5, 2);
  }
}

TEST(SnapshotFastPathTest, EveryCutFailsAtTheSameOffsetBothWays) {
  if (MixedDir().empty()) GTEST_SKIP() << "python3 is not available to generate snapshots";
  const std::string bytes = FileBytes(MixedDir() + "/mixed_p4.pickle");
  for (size_t cut = 1; cut < bytes.size(); cut += 997) {
    auto fast = LoadTorchSnapshotBytesForTest(std::string_view(bytes).substr(0, cut), true, nullptr);
    auto loop = LoadTorchSnapshotBytesForTest(std::string_view(bytes).substr(0, cut), false, nullptr);
    ASSERT_FALSE(static_cast<bool>(fast)) << cut;
    ASSERT_FALSE(static_cast<bool>(loop)) << cut;
    EXPECT_EQ(fast.error().ToString(), loop.error().ToString()) << cut;
  }
}

// What fuzz_snapshot_fast_path found (tests/fuzz/regressions/snapshot_fast_path/):
// a batch whose later opcodes work on an entry the fast path had taken once
// failed with another error than the loop's. Batches are all or nothing now.
TEST(SnapshotFastPathTest, CommittedFindingsReadAlikeBothWays) {
  const std::filesystem::path dir =
      std::filesystem::path(STEPLINE_SOURCE_DIR) / "tests" / "fuzz" / "regressions" / "snapshot_fast_path";
  size_t inputs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(e.path().filename().string());
    const std::string bytes = FileBytes(e.path().string());
    auto fast = LoadTorchSnapshotBytesForTest(bytes, true, nullptr);
    auto loop = LoadTorchSnapshotBytesForTest(bytes, false, nullptr);
    ASSERT_EQ(fast.ok(), loop.ok());
    if (!fast.ok()) EXPECT_EQ(fast.error().ToString(), loop.error().ToString());
    else EXPECT_EQ(InstantLines(*fast), InstantLines(*loop));
    ++inputs;
  }
  EXPECT_GT(inputs, 0u);
}

TEST(SnapshotFastPathTest, TheSharedSampleReadsAlikeBothWays) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = ::stepline::testing::SharedTracePath("memory_snapshots/mosaic_output.pickle");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  // Its 1,040 entries make one batch and a bit: one fast entry at most.
  ExpectBothWaysAlike(FileBytes(path), "mosaic_output.pickle", 0, 1000);
}

}  // namespace
}  // namespace stepline::loaders
