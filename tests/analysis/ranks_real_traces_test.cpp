// The shared multi-rank runs: every rank's collectives found and
// matched, clock offsets, lateness, steps and the straggler equal the facts
// tests/data/real_trace_facts/multirank_facts.py computes from the raw files
// (its output: multirank_facts.tsv). Skipped when the shared traces are absent.
#include <gtest/gtest.h>

#include <filesystem>

#include "loaders/load.h"
#include "model/analysis/ranks_analysis.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

struct RankFact {
  int32_t rank;
  size_t allreduce, sendrecv;
  DurNs clock_offset_ns, late_ns;
  int64_t steps;
  DurNs step_mean_ns;
};

struct RunFact {
  const char* folder;
  int32_t world_size;
  std::vector<RankFact> ranks;
  uint64_t matched, unmatched;
  size_t missing;
  int32_t straggler;  // -1 none
};

// multirank_facts.tsv
const RunFact kRuns[] = {
    {"multirank/param_dlrm_8rank",
     8,
     {{0, 3, 5, 0, 138468, 1, 14455000},
      {1, 3, 5, -500, -554156, 1, 19901000},
      {2, 3, 5, -500, 426468, 1, 13017000},
      {3, 3, 5, -1500, -358906, 1, 19313000},
      {4, 3, 5, -1000, 40718, 1, 17979000},
      {5, 3, 5, -1000, 81843, 1, 17797000},
      {6, 3, 5, -1000, 419218, 1, 13091000},
      {7, 3, 5, -1000, 645218, 1, 12509000}},
     8, 0, 0, 7},
    {"multirank/hta_sampled_2of128",
     128,
     {{0, 0, 10, 0, -12373150, 2, 615120000}, {1, 0, 10, 170000, 12373150, 2, 619271500}},
     10, 0, 126, -1},
};

class RanksRealTracesTest : public ::testing::TestWithParam<RunFact> {};

TEST_P(RanksRealTracesTest, MatchesTheRawFileFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const RunFact& fact = GetParam();
  const std::string dir = ::stepline::testing::SharedTracePath(fact.folder);
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  std::vector<RankSummary> in;
  for (const std::string& f : files) {
    auto trace = loaders::LoadFile(f);
    ASSERT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
    in.push_back(SummarizeRank(trace.value(), ComputeAnalysis(trace.value()), f));
  }
  std::sort(in.begin(), in.end(), [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  ASSERT_EQ(in.size(), fact.ranks.size());
  const RanksAnalysis a = AnalyzeRanks(in);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.world_size, fact.world_size);
  EXPECT_EQ(a.matched, fact.matched);
  EXPECT_EQ(a.unmatched, fact.unmatched);
  EXPECT_EQ(a.missing_ranks.size(), fact.missing);
  EXPECT_EQ(a.straggler ? a.straggler->rank : -1, fact.straggler);
  for (size_t i = 0; i < in.size(); ++i) {
    const RankFact& rf = fact.ranks[i];
    SCOPED_TRACE("rank " + std::to_string(rf.rank));
    EXPECT_EQ(in[i].rank, rf.rank);
    EXPECT_EQ(in[i].rank_source, "distributed_info");
    size_t allreduce = 0, sendrecv = 0;
    for (const CollectiveArrival& c : in[i].collectives) {
      allreduce += c.name == "AllReduce";
      sendrecv += c.name == "SendRecv";
    }
    EXPECT_EQ(allreduce, rf.allreduce);
    EXPECT_EQ(sendrecv, rf.sendrecv);
    EXPECT_EQ(in[i].collectives.size(), rf.allreduce + rf.sendrecv);
    EXPECT_EQ(a.ranks[i].clock_offset_ns, rf.clock_offset_ns);
    EXPECT_EQ(a.ranks[i].late_ns, rf.late_ns);
    EXPECT_EQ(a.ranks[i].steps, rf.steps);
    EXPECT_EQ(a.ranks[i].step_mean_ns, rf.step_mean_ns);
    // Wait is bounded by the kernels: never more than the collective time.
    EXPECT_LE(a.ranks[i].collective_wait_ns_per_step,
              At(a.ranks[i].breakdown_per_step, TimeCategory::kCollective));
  }
}

INSTANTIATE_TEST_SUITE_P(Shared, RanksRealTracesTest, ::testing::ValuesIn(kRuns), [](const auto& p) {
  return std::string(p.param.folder).substr(10);
});

}  // namespace
}  // namespace stepline::analysis
