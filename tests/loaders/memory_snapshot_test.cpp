// PyTorch memory snapshots: the pickle reader on snapshots Python writes at
// protocols 2 to 5 (tests/data/memory_snapshots/make_snapshots.py, run here
// when python3 is present), the pool levels they map to, the opcodes it
// refuses, and every cut of a snapshot (a clear error naming the offset).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "loaders/load.h"
#include "loaders/torch_snapshot/pickle_reader.h"
#include "loaders/torch_snapshot/snapshot_loader.h"
#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

std::string ReadSnapshotFile(const std::string& path) { return ::stepline::testing::ReadFileBytes(path); }

const std::string& GeneratedDir() { return ::stepline::testing::GeneratedSnapshotsDir(); }

#define REQUIRE_GENERATED()                                                                        \
  do {                                                                                             \
    if (GeneratedDir().empty()) GTEST_SKIP() << "python3 is not available to generate snapshots"; \
  } while (0)

const MemoryPool* Pool(const MemoryTable& t, std::string_view name) {
  for (const MemoryPool& p : t.pools) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

TEST(MemorySnapshotTest, SniffsPickleProtocolsTwoToFive) {
  for (char proto : {'\x02', '\x03', '\x04', '\x05'}) {
    EXPECT_EQ(SniffFormat(std::string("\x80") + proto + "}q\x00"), Format::kTorchMemorySnapshot) << int(proto);
  }
  EXPECT_EQ(SniffFormat(std::string("\x80\x01}", 3)), Format::kUnknown);
  EXPECT_EQ(SniffFormat(std::string("\x80\x06}", 3)), Format::kUnknown);
  EXPECT_EQ(FormatName(Format::kTorchMemorySnapshot), "torch-memory-snapshot");
}

// The figures make_snapshots.py's comments and snapshot_facts.py agree on.
void ExpectSmallSnapshot(const Trace& trace, const std::string& what) {
  SCOPED_TRACE(what);
  const MemoryTable table = BuildMemoryTable(trace);
  ASSERT_EQ(table.pools.size(), 2u);
  const MemoryPool* gpu0 = Pool(table, "GPU 0");
  ASSERT_NE(gpu0, nullptr);
  EXPECT_EQ(gpu0->samples.size(), 6u);  // 1 block from before the capture, 3 allocs, 2 frees
  EXPECT_EQ(gpu0->alloc_events, 4u);
  EXPECT_EQ(gpu0->free_events, 2u);
  EXPECT_EQ(gpu0->unmatched_frees, 1u);
  EXPECT_EQ(gpu0->never_freed, 3u);
  ASSERT_EQ(gpu0->ooms.size(), 1u);
  EXPECT_EQ(gpu0->ooms[0].bytes, int64_t{1} << 30);
  EXPECT_EQ(gpu0->ooms[0].reserved, 3 << 20);
  EXPECT_TRUE(gpu0->has_reserved);
  // 256 freed in the capture without its alloc + 8192 before it, then the allocs.
  EXPECT_EQ(gpu0->samples.front().allocated, 256 + 8192);
  EXPECT_EQ(gpu0->samples.front().reserved, 1 << 20);  // 3 MiB of segments at the snapshot - 2 MiB added in the capture
  EXPECT_EQ(gpu0->samples.back().allocated, 8192 + 4096 + 512);

  const analysis::MemoryAnalysis a = analysis::ComputeMemoryAnalysis(table, {});
  const analysis::MemoryPoolAnalysis& p0 = a.pools[static_cast<size_t>(gpu0 - table.pools.data())];
  EXPECT_EQ(p0.peak_allocated_bytes, 13568);
  EXPECT_EQ(p0.peak_reserved_bytes, 3 << 20);
  ASSERT_FALSE(p0.live_at_peak.empty());
  EXPECT_EQ(trace.str(p0.live_at_peak[0].op), "init_weights (model.py:7)");
  EXPECT_EQ(p0.live_at_peak[0].bytes, 8192);

  const MemoryPool* gpu1 = Pool(table, "GPU 1");
  ASSERT_NE(gpu1, nullptr);
  EXPECT_EQ(gpu1->never_freed, 1u);
  EXPECT_EQ(gpu1->samples.back().reserved, 4 << 20);

  // The full stack rides along for the details panel; the track says whose memory it is.
  const StringId stack_key = trace.strings().Find("stack");
  const StringId memory = trace.strings().Find("[memory]");
  bool found_stack = false;
  for (size_t i = 0; i < trace.instants().size(); ++i) {
    ArgValue v;
    if (trace.instants().name()[i] == memory && trace.args().Find(trace.instants().arg_set()[i], stack_key, &v) &&
        trace.str(v.as_string()) ==
            "linear (torch/nn/functional.py:2100)\nforward (model.py:42)\nmain (train.py:10)") {
      found_stack = true;
      EXPECT_EQ(trace.str(trace.tracks().name(trace.instants().track()[i])), "GPU 0 memory");
    }
  }
  EXPECT_TRUE(found_stack);
}

TEST(MemorySnapshotTest, EveryProtocolAndGzipGiveTheSameLevels) {
  REQUIRE_GENERATED();
  for (const char* name : {"small_p2.pickle", "small_p3.pickle", "small_p4.pickle", "small_p5.pickle",
                           "small_p4.pickle.gz", "small_batched_p2.pickle", "small_batched_p4.pickle"}) {
    auto r = LoadFile(GeneratedDir() + "/" + name);
    ASSERT_TRUE(static_cast<bool>(r)) << name << ": " << r.error().ToString();
    ExpectSmallSnapshot(*r, name);
  }
}

TEST(MemorySnapshotTest, EntriesWithoutTimesKeepTheirOrder) {
  REQUIRE_GENERATED();
  auto r = LoadFile(GeneratedDir() + "/no_times.pickle");
  ASSERT_TRUE(static_cast<bool>(r)) << r.error().ToString();
  const MemoryTable table = BuildMemoryTable(*r);
  const MemoryPool* gpu0 = Pool(table, "GPU 0");
  ASSERT_NE(gpu0, nullptr);
  ASSERT_EQ(gpu0->samples.size(), 6u);
  for (size_t i = 1; i < gpu0->samples.size(); ++i) EXPECT_LE(gpu0->samples[i - 1].ts_ns, gpu0->samples[i].ts_ns);
  EXPECT_EQ(gpu0->samples.back().ts_ns, 6000);  // the seventh entry, 1 µs apart
}

// A literal's bytes, NULs included.
template <size_t N>
std::string SnapshotBytes(const char (&s)[N]) {
  return std::string(s, N - 1);
}

std::string LoadErrorOf(std::string_view bytes) {
  auto r = LoadBytes(bytes, "snap.pickle");
  return static_cast<bool>(r) ? std::string("loaded") : r.error().ToString();
}

TEST(MemorySnapshotTest, RefusesCodeWithTheOffsetOfItsOpcode) {
  // pickle.dumps(os.system, 2)-style GLOBAL, then REDUCE: never run, refused at the GLOBAL.
  EXPECT_EQ(LoadErrorOf(SnapshotBytes("\x80\x02" "cos\nsystem\n(X\x02\x00\x00\x00lstR.")),
            "snap.pickle: byte 2: pickle opcode 0x63 (GLOBAL) is not allowed in a memory snapshot");
  EXPECT_EQ(LoadErrorOf(SnapshotBytes("\x80\x04\x8c\x02os\x8c\x06system\x93.")),
            "snap.pickle: byte 14: pickle opcode 0x93 (STACK_GLOBAL) is not allowed in a memory snapshot");
  EXPECT_EQ(LoadErrorOf(SnapshotBytes("\x80\x02}q\x00)R.")),
            "snap.pickle: byte 6: pickle opcode 0x52 (REDUCE) is not allowed in a memory snapshot");
  EXPECT_EQ(LoadErrorOf(SnapshotBytes("\x80\x04\x8f.")),
            "snap.pickle: byte 2: pickle opcode 0x8F (EMPTY_SET) is not allowed in a memory snapshot");
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x04\xff.")).find("byte 2: 0xFF is not a pickle opcode"),
            std::string::npos);
}

TEST(MemorySnapshotTest, RejectsMalformedStructure) {
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02h\x05.")).find("byte 2: memo index 5 was never stored"),
            std::string::npos);
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02}K\x01" "a.")).find("adds to a value that is not a list"),
            std::string::npos);
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02" "e.")).find("without a MARK"), std::string::npos);
  EXPECT_NE(LoadErrorOf(std::string("\x80\x02" + std::string(1000, '(') + ".")).find("nested deeper"),
            std::string::npos);
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02X\xff\xff\xff\x7f" "abc")).find("the file is truncated"),
            std::string::npos);
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02]q\x00.")).find("not a PyTorch memory snapshot"), std::string::npos);
  // A list holding itself is just a value: nothing walks it without bound.
  EXPECT_NE(LoadErrorOf(SnapshotBytes("\x80\x02]q\x00h\x00" "a.")).find("not a PyTorch memory snapshot"),
            std::string::npos);
}

// Every prefix either loads (never: the STOP is the last byte) or fails with
// an error naming a byte inside the file.
void ExpectEveryCutFails(const std::string& bytes, size_t stride) {
  for (size_t cut = 1; cut < bytes.size(); cut += stride) {
    auto r = LoadBytes(std::string_view(bytes).substr(0, cut), "cut.pickle");
    ASSERT_FALSE(static_cast<bool>(r)) << cut;
    EXPECT_NE(r.error().byte_offset, LoadError::kNoOffset) << cut;
    EXPECT_LE(r.error().byte_offset, cut) << cut;
    EXPECT_FALSE(r.error().message.empty()) << cut;
  }
}

TEST(MemorySnapshotTest, EveryCutGivesAnErrorNamingTheOffset) {
  REQUIRE_GENERATED();
  for (const char* name : {"small_p2.pickle", "small_p4.pickle"}) ExpectEveryCutFails(ReadSnapshotFile(GeneratedDir() + "/" + name), 1);
}

TEST(MemorySnapshotTest, CutsOfTheSharedSample) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = ::stepline::testing::SharedTracePath("memory_snapshots/mosaic_output.pickle");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  ExpectEveryCutFails(ReadSnapshotFile(path), 61);
}

}  // namespace
}  // namespace stepline::loaders
