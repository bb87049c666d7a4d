// Distributed-run analysis: the ddp-straggler demo's planted truth
// (straggler, cause, lateness, every rank's wait and clock offset) is what
// AnalyzeRanks finds, with and without clock skew; plus the small pure parts
// (collective names, rank identity, matching, mixed runs).
#include <gtest/gtest.h>

#include <cmath>

#include "demo/demo_ddp.h"
#include "loaders/load.h"
#include "model/analysis/ranks_analysis.h"
#include "model/analysis/ranks_summary_json.h"

namespace stepline::analysis {
namespace {

std::vector<RankSummary> Summaries(const demo::DdpDemo& demo, int ranks) {
  std::vector<RankSummary> out;
  for (int r = 0; r < ranks; ++r) {
    auto trace = loaders::LoadBytes(demo.RankJson(r), "rank" + std::to_string(r) + ".json");
    EXPECT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
    if (!trace) continue;
    out.push_back(SummarizeRank(trace.value(), ComputeAnalysis(trace.value()), "rank" + std::to_string(r)));
  }
  return out;
}

// Within 5% of `truth`, or 20 us when the truth is near zero.
void ExpectNear5(DurNs got, DurNs truth, const std::string& what) {
  const double tol = std::max(0.05 * std::abs(static_cast<double>(truth)), 20'000.0);
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(truth), tol) << what;
}

struct DemoCase {
  int ranks;
  int64_t skew_us;
};

class RanksDemoTest : public ::testing::TestWithParam<DemoCase> {};

TEST_P(RanksDemoTest, FindsThePlantedStragglerWaitsAndOffsets) {
  demo::DdpDemoOptions o;
  o.ranks = GetParam().ranks;
  o.steps = 6;
  o.kernels_per_step = 12;
  o.skew_ns = GetParam().skew_us * 1000;
  ASSERT_EQ(demo::CheckDdpDemoOptions(o), "");
  const demo::DdpDemo demo(o);
  const demo::DdpDemoTruth& truth = demo.truth();
  const std::vector<RankSummary> in = Summaries(demo, o.ranks);
  ASSERT_EQ(in.size(), static_cast<size_t>(o.ranks));
  for (const RankSummary& s : in) {
    EXPECT_EQ(s.rank_source, "distributed_info");
    EXPECT_EQ(s.world_size, o.ranks);
    EXPECT_EQ(s.steps, o.steps);
    EXPECT_EQ(s.collectives.size(), static_cast<size_t>(o.steps));
  }
  const RanksAnalysis a = AnalyzeRanks(in);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.matched, static_cast<uint64_t>(o.steps));
  EXPECT_EQ(a.unmatched, 0u);
  EXPECT_TRUE(a.missing_ranks.empty());
  ASSERT_TRUE(a.straggler.has_value());
  EXPECT_EQ(a.straggler->rank, truth.straggler);
  EXPECT_EQ(a.straggler->cause, truth.cause);
  ASSERT_FALSE(a.straggler->blamed.empty());
  EXPECT_EQ(a.straggler->blamed.front(), truth.blamed);
  EXPECT_EQ(a.straggler->collective, "AllReduce");
  ExpectNear5(a.straggler->late_ns, truth.ranks[static_cast<size_t>(truth.straggler)].late_ns, "straggler late");
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    const RankRow& row = a.ranks[r];
    const demo::DdpRankTruth& t = truth.ranks[static_cast<size_t>(row.rank)];
    ExpectNear5(row.collective_wait_ns_per_step, t.wait_ns_per_step, "wait of rank " + std::to_string(row.rank));
    ExpectNear5(row.late_ns, t.late_ns, "late of rank " + std::to_string(row.rank));
    ExpectNear5(row.clock_offset_ns, t.clock_offset_ns, "offset of rank " + std::to_string(row.rank));
    ExpectNear5(row.step_mean_ns, truth.step_mean_ns, "step mean of rank " + std::to_string(row.rank));
    EXPECT_EQ(row.overlap_percent, 0.0);  // the demo's all-reduce never overlaps compute
    ASSERT_EQ(row.late_by_step.size(), static_cast<size_t>(o.steps));
    DurNs step_sum = 0;
    for (DurNs v : row.late_by_step) step_sum += v;
    EXPECT_NEAR(static_cast<double>(step_sum / o.steps), static_cast<double>(row.late_ns), 1.0);  // one per step
    EXPECT_NEAR(row.collective_wait_ns_per_step + row.collective_transfer_ns_per_step,
                At(row.breakdown_per_step, TimeCategory::kCollective), 1)
        << "wait + transfer = collective, rank " << row.rank;
  }
  ASSERT_EQ(a.recommendations.size(), 1u);
  EXPECT_NE(a.recommendations[0].find("Rank " + std::to_string(truth.straggler) + " arrives "), std::string::npos)
      << a.recommendations[0];
  EXPECT_NE(a.recommendations[0].find("all-reduce (DataLoader: `enumerate(DataLoader)"), std::string::npos)
      << a.recommendations[0];
}

INSTANTIATE_TEST_SUITE_P(Demo, RanksDemoTest,
                         ::testing::Values(DemoCase{4, 0}, DemoCase{4, 7000}, DemoCase{16, 0}, DemoCase{16, 7000},
                                           DemoCase{64, 0}, DemoCase{64, 7000}),
                         [](const auto& p) {
                           return std::to_string(p.param.ranks) + "ranks_skew" + std::to_string(p.param.skew_us) + "us";
                         });

TEST(RanksDemoTest, SkewGivesTheSameAnswersAsNoSkew) {
  demo::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 4;
  o.kernels_per_step = 6;
  const RanksAnalysis plain = AnalyzeRanks(Summaries(demo::DdpDemo(o), o.ranks));
  o.skew_ns = 7'000'000;
  const RanksAnalysis skewed = AnalyzeRanks(Summaries(demo::DdpDemo(o), o.ranks));
  ASSERT_TRUE(plain.straggler && skewed.straggler);
  EXPECT_EQ(plain.straggler->rank, skewed.straggler->rank);
  EXPECT_EQ(plain.recommendations, skewed.recommendations);
  for (size_t r = 0; r < plain.ranks.size(); ++r) {
    EXPECT_EQ(plain.ranks[r].late_ns, skewed.ranks[r].late_ns);
    EXPECT_EQ(plain.ranks[r].collective_wait_ns_per_step, skewed.ranks[r].collective_wait_ns_per_step);
    EXPECT_EQ(skewed.ranks[r].clock_offset_ns - plain.ranks[r].clock_offset_ns, 7'000'000 * plain.ranks[r].rank);
  }
}

TEST(RanksInputTest, NormalizesCollectiveNames) {
  EXPECT_EQ(NormalizeCollectiveName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"),
            "AllReduce");
  EXPECT_EQ(NormalizeCollectiveName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"), "AllReduce");
  EXPECT_EQ(NormalizeCollectiveName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"), "SendRecv");
  EXPECT_EQ(NormalizeCollectiveName("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL"), "ReduceScatter");
  EXPECT_EQ(NormalizeCollectiveName("nccl:all_reduce"), "AllReduce");
  EXPECT_EQ(NormalizeCollectiveName("ncclDevKernel_Generic(ncclDevComm*)"), "Generic");
}

TEST(RanksInputTest, ParsesDistributedInfo) {
  int32_t rank = 0, world = 0;
  std::string backend;
  ParseDistributedInfo(R"({"backend":"nccl","rank":3,"world_size":128})", &rank, &world, &backend);
  EXPECT_EQ(rank, 3);
  EXPECT_EQ(world, 128);
  EXPECT_EQ(backend, "nccl");
  ParseDistributedInfo(R"({"backend": "gloo", "rank": 0})", &rank, &world, &backend);
  EXPECT_EQ(rank, 0);
  EXPECT_EQ(world, -1);
  EXPECT_EQ(backend, "gloo");
  ParseDistributedInfo("{}", &rank, &world, &backend);
  EXPECT_EQ(rank, -1);
  ParseDistributedInfo(R"({"rank": 99999999999, "world_size": 4000000000})", &rank, &world, &backend);
  EXPECT_EQ(rank, -1);  // not a rank: never sizes a table
  EXPECT_EQ(world, -1);
}

TEST(RanksInputTest, RankFromFileName) {
  EXPECT_EQ(RankFromFileName("sampled_rank-3.json.gz"), 3);
  EXPECT_EQ(RankFromFileName("rank12.pt.trace.json"), 12);
  EXPECT_EQ(RankFromFileName("trace_rank_7.json"), 7);
  EXPECT_EQ(RankFromFileName("worker5_step_12.1694128201549.pt.trace.json.gz"), 5);
  EXPECT_EQ(RankFromFileName("Worker_2.json"), 2);
  EXPECT_EQ(RankFromFileName("trace.json"), -1);
  EXPECT_EQ(RankFromFileName("ranked.json"), -1);
  EXPECT_EQ(RankFromFileName("rank99999999999.json"), -1);
  EXPECT_EQ(ParallelCoordinates("iter-5-TP-0-DP-1-PP-2.json"), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_TRUE(ParallelCoordinates("host-1.json").empty());
}

RankSummary Synthetic(int32_t rank, std::vector<std::pair<TimeNs, TimeNs>> kernels, int32_t world = 2) {
  RankSummary s;
  s.path = "r" + std::to_string(rank);
  s.rank = rank;
  s.world_size = world;
  s.steps = 1;
  s.step_total_ns = 100'000;
  s.span = {0, 100'000};
  for (auto [a, b] : kernels) {
    CollectiveArrival c;
    c.name = "AllReduce";
    c.ordinal = static_cast<uint32_t>(s.collectives.size());
    c.start_ns = a;
    c.end_ns = b;
    c.step = 0;
    s.collectives.push_back(c);
  }
  At(s.breakdown_total, TimeCategory::kCollective) = 0;
  for (auto [a, b] : kernels) At(s.breakdown_total, TimeCategory::kCollective) += b - a;
  return s;
}

TEST(RanksAnalysisTest, WaitIsBoundedByTheKernelAndUnmatchedAreCounted) {
  // Rank 1 arrives 30 us late at both; rank 0's first kernel (10 us long) cannot wait 30 us.
  std::vector<RankSummary> in = {Synthetic(0, {{1'000, 11'000}, {50'000, 90'000}, {95'000, 96'000}}),
                                 Synthetic(1, {{31'000, 41'000}, {80'000, 90'000}})};
  const RanksAnalysis a = AnalyzeRanks(in);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.matched, 2u);
  EXPECT_EQ(a.unmatched, 1u);  // rank 0's third all-reduce
  // End differences: 30 us and 0 -> median 15 us.
  EXPECT_EQ(a.ranks[1].clock_offset_ns, 15'000);
  EXPECT_EQ(a.ranks[0].clock_offset_ns, 0);
}

TEST(RanksAnalysisTest, RefusesMixedWorldSizesAndNamesMissingRanks) {
  std::vector<RankSummary> mixed = {Synthetic(0, {{0, 10}}, 8), Synthetic(1, {{0, 10}}, 4)};
  const RanksAnalysis m = AnalyzeRanks(mixed);
  EXPECT_NE(m.error.find("different runs"), std::string::npos);
  EXPECT_NE(m.error.find("r0 (world_size 8)"), std::string::npos);
  EXPECT_NE(m.error.find("r1 (world_size 4)"), std::string::npos);

  std::vector<RankSummary> apart = {Synthetic(0, {}, 4), Synthetic(2, {}, 4)};
  apart[1].span = {500'000, 600'000};
  const RanksAnalysis p = AnalyzeRanks(apart);
  EXPECT_NE(p.error.find("no overlap in time"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("r2"), std::string::npos);

  std::vector<RankSummary> some = {Synthetic(0, {{0, 10}}, 4), Synthetic(2, {{0, 10}}, 4)};
  const RanksAnalysis s = AnalyzeRanks(some);
  EXPECT_EQ(s.error, "");
  EXPECT_EQ(s.missing_ranks, (std::vector<int32_t>{1, 3}));
}

}  // namespace
}  // namespace stepline::analysis

namespace stepline::analysis {
namespace {

TEST(RankSummaryJsonTest, RoundTripsEveryField) {
  demo::DdpDemoOptions o;
  o.ranks = 2;
  o.steps = 3;
  o.kernels_per_step = 4;
  const std::vector<RankSummary> in = Summaries(demo::DdpDemo(o), 2);
  ASSERT_EQ(in.size(), 2u);
  RankSummary s = in[1];
  s.path = "dir/\"quoted\"\\rank\n1";
  s.collectives.front().compute = {{1, 2}, {5, 9}};
  s.collectives.front().seq = 77;
  s.collectives.front().group = "0";
  const std::string json = RankSummaryToJson(s);
  auto back = RankSummaryFromJson("{\"steps\": [], \"rank_summary\": " + json + "}", "r.json");
  ASSERT_TRUE(static_cast<bool>(back)) << back.error();
  const RankSummary& b = back.value();
  EXPECT_EQ(b.path, s.path);
  EXPECT_EQ(b.host, s.host);
  EXPECT_EQ(b.rank, 1);
  EXPECT_EQ(b.world_size, 2);
  EXPECT_EQ(b.backend, "nccl");
  EXPECT_EQ(b.steps, s.steps);
  EXPECT_EQ(b.step_total_ns, s.step_total_ns);
  EXPECT_EQ(b.breakdown_total, s.breakdown_total);
  EXPECT_EQ(b.idle_by_cause_total, s.idle_by_cause_total);
  EXPECT_EQ(b.span.start_ns, s.span.start_ns);
  EXPECT_EQ(b.names, s.names);
  EXPECT_EQ(b.top_kernels, s.top_kernels);
  ASSERT_EQ(b.collectives.size(), s.collectives.size());
  for (size_t i = 0; i < s.collectives.size(); ++i) {
    const CollectiveArrival &x = s.collectives[i], &y = b.collectives[i];
    EXPECT_EQ(x.group, y.group);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.seq, y.seq);
    EXPECT_EQ(x.ordinal, y.ordinal);
    EXPECT_EQ(x.start_ns, y.start_ns);
    EXPECT_EQ(x.end_ns, y.end_ns);
    EXPECT_EQ(x.step, y.step);
    ASSERT_EQ(x.compute.size(), y.compute.size());
    for (size_t k = 0; k < x.compute.size(); ++k) EXPECT_EQ(x.compute[k].end_ns, y.compute[k].end_ns);
    ASSERT_EQ(x.blamed.size(), y.blamed.size());
    for (size_t k = 0; k < x.blamed.size(); ++k) EXPECT_EQ(x.blamed[k].ns, y.blamed[k].ns);
    EXPECT_EQ(x.idle_before, y.idle_before);
  }
}

TEST(RankSummaryJsonTest, ErrorsNameTheFileAndOffset) {
  auto bad = RankSummaryFromJson("{\"rank_summary\": {\"version\": 1,", "r7.json");
  ASSERT_FALSE(static_cast<bool>(bad));
  EXPECT_EQ(bad.error().rfind("r7.json: byte ", 0), 0u) << bad.error();
  auto none = RankSummaryFromJson("{\"steps\": []}", "plain.json");
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_NE(none.error().find("no \"rank_summary\""), std::string::npos);
  auto wrong = RankSummaryFromJson("{\"rank_summary\": {\"version\": 1, \"rank\": \"x\"}}", "w.json");
  ASSERT_FALSE(static_cast<bool>(wrong));
  EXPECT_NE(wrong.error().find("w.json: rank_summary: expected"), std::string::npos) << wrong.error();
}

}  // namespace
}  // namespace stepline::analysis
