// The memory pools of every shared trace with memory events against the
// independent count of tests/data/memory_facts/memory_facts.py (facts.tsv):
// device names, peak allocated / reserved, relative, alloc and free counts.
// Skips when the shared traces are absent.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct FactRow {
  std::string device;
  int64_t peak_allocated = 0, peak_reserved = -1;
  bool relative = false;
  uint64_t allocations = 0, frees = 0;
};

std::map<std::string, std::vector<FactRow>> ReadFacts() {
  std::ifstream in(testing::TestDataPath("memory_facts/facts.tsv"));
  std::map<std::string, std::vector<FactRow>> out;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string path, relative;
    FactRow row;
    std::getline(fields, path, '\t');
    std::getline(fields, row.device, '\t');
    fields >> row.peak_allocated >> row.peak_reserved >> relative >> row.allocations >> row.frees;
    row.relative = relative == "1";
    out[path].push_back(row);
  }
  return out;
}

TEST(MemoryRealTracesTest, FactsFileIsPresent) {
  const auto facts = ReadFacts();
  EXPECT_EQ(facts.size(), 8u);  // the 6 Kineto and 2 XSpace traces with memory events
}

TEST(MemoryRealTracesTest, PeaksAndCountsMatchTheIndependentScript) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const auto& [path, rows] : ReadFacts()) {
    SCOPED_TRACE(path);
    auto loaded = loaders::LoadFile(testing::SharedTracePath(path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const Trace& trace = loaded.value();
    const MemoryTable table = BuildMemoryTable(trace);
    const MemoryAnalysis analysis = ComputeMemoryAnalysis(table, {});
    ASSERT_EQ(table.pools.size(), rows.size());
    uint64_t events = 0;
    for (const FactRow& row : rows) {
      SCOPED_TRACE(row.device);
      size_t p = 0;
      while (p < table.pools.size() && table.pools[p].name != row.device) ++p;
      ASSERT_LT(p, table.pools.size()) << "no pool named " << row.device;
      const MemoryPool& pool = table.pools[p];
      EXPECT_EQ(analysis.pools[p].peak_allocated_bytes, row.peak_allocated);
      EXPECT_EQ(analysis.pools[p].peak_reserved_bytes, row.peak_reserved);
      EXPECT_EQ(pool.relative, row.relative);
      EXPECT_EQ(pool.alloc_events, row.allocations);
      EXPECT_EQ(pool.free_events, row.frees);
      // Every alloc is a row; every free closes one or adds a free-only row.
      EXPECT_EQ(pool.allocations.size(), pool.alloc_events + pool.unmatched_frees);
      EXPECT_LE(pool.unmatched_frees, pool.free_events);
      events += pool.samples.size();
    }
    EXPECT_LE(events, table.memory_events);
  }
}

// The H100 and MI300 (ROCm, Device Type 6) runs of the same Qwen model: one
// GPU each, every alloc matched to its free, capacity from deviceProperties.
TEST(MemoryRealTracesTest, QwenOnH100AndMi300) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  for (const char* path : {"memory/h100_Qwen1.5-0.5B-Chat.json.gz", "memory/mi300_Qwen1.5-0.5B-Chat.json.gz"}) {
    SCOPED_TRACE(path);
    auto loaded = loaders::LoadFile(testing::SharedTracePath(path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const MemoryTable table = BuildMemoryTable(loaded.value());
    ASSERT_EQ(table.pools.size(), 2u);
    const MemoryPool& gpu = table.pools[0];
    EXPECT_EQ(gpu.name, "GPU 0");
    EXPECT_EQ(gpu.unmatched_frees, 0u);
    EXPECT_EQ(gpu.never_freed, 0u);
    EXPECT_GT(gpu.capacity_bytes, 80'000'000'000);
    const MemoryAnalysis a = ComputeMemoryAnalysis(table, {});
    // Everything live at the peak was allocated in the capture: the ops'
    // bytes add up to at most the peak (the rest was held before it started).
    EXPECT_GT(a.pools[0].live_known_bytes, 0);
    EXPECT_LE(a.pools[0].live_known_bytes, a.pools[0].peak_allocated_bytes);
  }
}

}  // namespace
}  // namespace stepline::analysis
