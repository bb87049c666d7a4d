// The public memory snapshot of ../shared/traces/memory_snapshots (see its
// MANIFEST.tsv) against the facts Python's own pickle module gives
// (tests/data/memory_snapshot_facts/snapshot_facts.py over the file, its
// output committed as mosaic_output.tsv next to it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "loaders/load.h"
#include "model/analysis/memory_analysis.h"
#include "model/memory_table.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// device -> key -> value
std::map<std::string, std::map<std::string, std::string>> ReadFacts(const std::string& path) {
  std::map<std::string, std::map<std::string, std::string>> out;
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream cells(line);
    std::string device, key, value;
    std::getline(cells, device, '\t');
    std::getline(cells, key, '\t');
    std::getline(cells, value);
    out[device][key] = value;
  }
  return out;
}

TEST(MemorySnapshotRealTraceTest, MosaicSampleMatchesPythonFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = ::stepline::testing::SharedTracePath("memory_snapshots/mosaic_output.pickle");
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  const auto facts = ReadFacts(::stepline::testing::TestDataPath("memory_snapshot_facts/mosaic_output.tsv"));
  ASSERT_FALSE(facts.empty());

  auto r = LoadFile(path);
  ASSERT_TRUE(static_cast<bool>(r)) << r.error().ToString();
  EXPECT_EQ(r->info().format, "torch-memory-snapshot");
  const MemoryTable table = BuildMemoryTable(*r);
  const analysis::MemoryAnalysis analysis = analysis::ComputeMemoryAnalysis(table, {});
  ASSERT_EQ(table.pools.size(), facts.size());
  for (size_t i = 0; i < table.pools.size(); ++i) {
    const MemoryPool& pool = table.pools[i];
    const analysis::MemoryPoolAnalysis& a = analysis.pools[i];
    const auto& f = facts.at(std::to_string(pool.device_id));
    SCOPED_TRACE(pool.name);
    EXPECT_EQ(pool.name, f.at("pool"));
    EXPECT_EQ(std::to_string(pool.samples.size()), f.at("samples"));
    EXPECT_EQ(std::to_string(pool.alloc_events), f.at("alloc_events"));
    EXPECT_EQ(std::to_string(pool.free_events), f.at("free_events"));
    EXPECT_EQ(std::to_string(pool.unmatched_frees), f.at("unmatched_frees"));
    EXPECT_EQ(std::to_string(pool.never_freed), f.at("never_freed"));
    EXPECT_EQ(std::to_string(pool.ooms.size()), f.at("ooms"));
    EXPECT_EQ(std::to_string(a.peak_allocated_bytes), f.at("peak_allocated_bytes"));
    EXPECT_EQ(std::to_string(a.peak_reserved_bytes), f.at("peak_reserved_bytes"));
    ASSERT_FALSE(a.live_at_peak.empty());
    EXPECT_EQ(r->str(a.live_at_peak[0].op), f.at("top_at_peak_name"));
    EXPECT_EQ(std::to_string(a.live_at_peak[0].bytes), f.at("top_at_peak_bytes"));
  }
}

}  // namespace
}  // namespace stepline::loaders
