// Graph replays on the shared traces that mention graphs, against the facts
// an independent script counted from the raw files
// (tests/data/real_trace_facts/graph_replay_facts.py and .tsv): replays, nodes,
// graphs, and the primary device's `graph` idle, gap by gap.
#include <gtest/gtest.h>

#include <set>

#include "loaders/load.h"
#include "model/analysis/trace_analysis.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct GraphFactRow {
  std::string path;
  int64_t launches = 0, replays = 0, nodes = 0, kernel_nodes = 0, graphs = 0, graph_gaps = 0, graph_idle_ns = 0;
  std::string sizes;
};

std::vector<GraphFactRow> ReadGraphFacts() {
  std::vector<GraphFactRow> out;
  for (const std::vector<std::string>& c : testing::ReadTsvRows("real_trace_facts/graph_replay_facts.tsv")) {
    if (c.size() < 9) continue;
    out.push_back({c[0], std::stoll(c[1]), std::stoll(c[2]), std::stoll(c[3]), std::stoll(c[4]), std::stoll(c[5]),
                   std::stoll(c[7]), std::stoll(c[8]), c[6]});
  }
  return out;
}

TEST(GraphReplaysRealTest, ReplaysAndGraphIdleMatchTheScript) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::vector<GraphFactRow> facts = ReadGraphFacts();
  ASSERT_EQ(facts.size(), 3u);
  for (const GraphFactRow& want : facts) {
    SCOPED_TRACE(want.path);
    auto loaded = loaders::LoadFile(testing::SharedTracePath(want.path));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const TraceAnalysis a = ComputeAnalysis(loaded.value());
    const GraphReplays& g = a.graphs;
    EXPECT_EQ(static_cast<int64_t>(g.replays.size()), want.replays);
    EXPECT_EQ(static_cast<int64_t>(g.node_replay.size()), want.nodes);
    int64_t kernel_nodes = 0;
    for (const auto& [node, replay] : g.node_replay) {
      kernel_nodes += IsKernelLike(loaded->slices().gpu_kind()[node.index()]) ? 1 : 0;
    }
    EXPECT_EQ(kernel_nodes, want.kernel_nodes);
    std::set<int64_t> graphs;
    std::set<uint32_t> sizes;
    for (const GraphReplay& r : g.replays) {
      graphs.insert(r.graph_id);
      sizes.insert(r.nodes);
      EXPECT_FALSE(r.graph_id_recorded);  // none of these traces records graph ids
    }
    EXPECT_EQ(static_cast<int64_t>(graphs.size()), want.graphs);
    std::string size_text;
    for (uint32_t s : sizes) size_text += (size_text.empty() ? "" : ",") + std::to_string(s);
    EXPECT_EQ(size_text.empty() ? "-" : size_text, want.sizes);
    // The primary device's gaps with cause graph: count and time.
    int64_t gaps = 0;
    DurNs idle = 0;
    if (a.primary() != nullptr) {
      const auto [begin, end] = a.DeviceGaps(static_cast<uint32_t>(a.primary_device));
      for (uint32_t i = begin; i < end; ++i) {
        if (a.gaps[i].cause != IdleCause::kGraph) continue;
        ++gaps;
        idle += a.gaps[i].dur_ns();
        EXPECT_TRUE(a.gaps[i].cause_events.empty());  // never a host event
      }
      EXPECT_EQ(At(a.primary()->idle_by_cause, IdleCause::kGraph), idle);
    }
    EXPECT_EQ(gaps, want.graph_gaps);
    EXPECT_EQ(idle, want.graph_idle_ns);
  }
}

}  // namespace
}  // namespace stepline::analysis
