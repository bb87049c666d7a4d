// XLA collectives in the ranks analysis: XLA op names classify
// into collectives by the one table of model/xla_op.h (async halves paired),
// and synthetic TPU hosts (tests/loaders/xspace_ranks_builder.h) give the
// planted straggler, waits and clock offsets, matched by HLO instruction and
// order, with and without clock skew.
#include <gtest/gtest.h>

#include "loaders/xspace/xspace_loader.h"
#include "model/analysis/ranks_analysis.h"
#include "model/analysis/ranks_summary_json.h"
#include "model/xla_op.h"
#include "tests/loaders/xspace_ranks_builder.h"

namespace stepline::testing {
namespace {

using analysis::RankSummary;

TEST(XlaCollectiveNames, KindPartAndInstruction) {
  struct Case {
    const char* name;
    const char* category;
    const char* kind;  // "" = not a collective
    XlaAsyncPart part;
    const char* instruction;
  };
  const Case cases[] = {
      {"all-reduce.3", "", "AllReduce", XlaAsyncPart::kWhole, "all-reduce.3"},
      {"all-gather-start", "", "AllGather", XlaAsyncPart::kStart, "all-gather-start"},
      {"all-gather-done", "", "AllGather", XlaAsyncPart::kDone, "all-gather-done"},
      {"reduce-scatter.1", "", "ReduceScatter", XlaAsyncPart::kWhole, "reduce-scatter.1"},
      {"collective-permute-start.2", "", "CollectivePermute", XlaAsyncPart::kStart, "collective-permute-start.2"},
      {"all-to-all", "", "AllToAll", XlaAsyncPart::kWhole, "all-to-all"},
      {"ragged-all-to-all.4", "", "AllToAll", XlaAsyncPart::kWhole, "ragged-all-to-all.4"},
      {"send", "", "Send", XlaAsyncPart::kStart, "send"},
      {"send-done.1", "", "Send", XlaAsyncPart::kDone, "send-done.1"},
      {"recv.2", "", "Recv", XlaAsyncPart::kStart, "recv.2"},
      {"recv-done", "", "Recv", XlaAsyncPart::kDone, "recv-done"},
      {"%ag.1 = f32[8]{0} all-gather-start(f32[2]{0} %p)", "", "AllGather", XlaAsyncPart::kStart, "ag.1"},
      {"fusion.3", "all-reduce", "AllReduce", XlaAsyncPart::kWhole, "fusion.3"},  // by hlo_category
      {"sendfoo_fusion", "", "", XlaAsyncPart::kWhole, ""},
      {"reduce.7", "", "", XlaAsyncPart::kWhole, ""},  // a compute op, not reduce-scatter
      {"ncclDevKernel_AllReduce_Sum_f32_RING_LL", "", "", XlaAsyncPart::kWhole, ""},
  };
  for (const Case& c : cases) {
    XlaCollective x;
    const bool is = ParseXlaCollective(c.name, c.category, &x);
    EXPECT_EQ(is, c.kind[0] != '\0') << c.name;
    // ClassifyXlaOp reads the same table.
    EXPECT_EQ(ClassifyXlaOp(c.name, c.category) == GpuKind::kCollective, is) << c.name;
    if (!is) continue;
    EXPECT_EQ(x.kind, c.kind) << c.name;
    EXPECT_EQ(x.part, c.part) << c.name;
    EXPECT_EQ(x.instruction, c.instruction) << c.name;
  }
  EXPECT_EQ(analysis::NormalizeCollectiveName("all-reduce-start.3"), "AllReduce");
  EXPECT_EQ(analysis::NormalizeCollectiveName("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), "AllReduce");
}

std::vector<RankSummary> Summaries(const XlaRunPlan& plan) {
  std::vector<RankSummary> out;
  for (int h = 0; h < plan.hosts; ++h) {
    const std::string path = "host-" + std::to_string(h) + ".xplane.pb";
    auto trace = loaders::LoadXSpaceBytes(XlaRunHost(plan, h), path, {});
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
    if (!trace.ok()) continue;
    RankSummary s = analysis::SummarizeRank(trace.value(), analysis::ComputeAnalysis(trace.value()), path);
    s.rank = h;
    out.push_back(std::move(s));
  }
  return out;
}

class XlaRanksTest : public ::testing::TestWithParam<int64_t> {};

TEST_P(XlaRanksTest, FindsThePlantedStragglerWaitsAndOffsets) {
  XlaRunPlan plan;
  plan.skew_ns = GetParam();
  const std::vector<RankSummary> in = Summaries(plan);
  ASSERT_EQ(in.size(), static_cast<size_t>(plan.hosts));
  for (const RankSummary& s : in) {
    EXPECT_EQ(s.host, "host-" + std::to_string(s.rank));
    EXPECT_EQ(s.steps, plan.steps);
    // Per step: the async all-reduce (its two halves one collective) and the all-gather.
    ASSERT_EQ(s.collectives.size(), static_cast<size_t>(2 * plan.steps));
    const analysis::CollectiveArrival& ar = s.collectives[0];
    EXPECT_EQ(ar.name, "AllReduce");
    EXPECT_EQ(ar.op, "all-reduce-start.3");
    EXPECT_EQ(ar.start_ns, kXlaRunBaseNs + s.rank * plan.skew_ns + XlaArrivalNs(plan, s.rank));
    EXPECT_EQ(ar.end_ns, kXlaRunBaseNs + s.rank * plan.skew_ns + XlaLastArrivalNs(plan) + 500 * kXlaUs);
    EXPECT_EQ(s.collectives[1].name, "AllGather");
    EXPECT_EQ(s.collectives[1].op, "all-gather.5");
    EXPECT_EQ(s.collectives[2].ordinal, 1u);
    for (const auto& k : s.top_kernels) EXPECT_EQ(k.first.find("all-"), std::string::npos) << k.first;
  }
  const analysis::RanksAnalysis a = analysis::AnalyzeRanks(in);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.matched, static_cast<uint64_t>(2 * plan.steps));
  EXPECT_EQ(a.unmatched, 0u);
  ASSERT_EQ(a.ranks.size(), static_cast<size_t>(plan.hosts));
  for (int h = 0; h < plan.hosts; ++h) {
    const analysis::RankRow& row = a.ranks[static_cast<size_t>(h)];
    EXPECT_EQ(row.clock_offset_ns, h * plan.skew_ns) << h;
    // Lateness: the mean over the two instances per step (the all-gather's is 0).
    EXPECT_NEAR(static_cast<double>(row.late_ns), XlaLateAtAllReduceNs(plan, h) / 2.0, 1000.0) << h;
    // Wait per step: the all-reduce's (no compute runs under it).
    EXPECT_NEAR(static_cast<double>(row.collective_wait_ns_per_step), static_cast<double>(XlaWaitNs(plan, h)),
                1000.0)
        << h;
  }
  ASSERT_TRUE(a.straggler.has_value());
  EXPECT_EQ(a.straggler->rank, plan.straggler);
  // TPU ops carry no launch links, so the idle before the late arrivals has
  // no host event to blame (idle_gap.h rule 4): the cause is its idle cause.
  EXPECT_EQ(a.straggler->cause, "other");
  EXPECT_TRUE(a.straggler->blamed.empty());
  EXPECT_EQ(a.straggler->collective, "AllReduce");  // late there, on time at the all-gather
  ASSERT_FALSE(a.recommendations.empty());
  EXPECT_NE(a.recommendations.front().find("Rank 2 arrives 1.4 ms late at each all-reduce (the device idles"),
            std::string::npos)
      << a.recommendations.front();
}

INSTANTIATE_TEST_SUITE_P(Skew, XlaRanksTest, ::testing::Values(int64_t{0}, int64_t{7'000'000}));

TEST(XlaRanks, SummaryJsonKeepsTheOp) {
  XlaRunPlan plan;
  plan.hosts = 2;
  plan.steps = 2;
  plan.straggler = 1;
  const std::vector<RankSummary> in = Summaries(plan);
  ASSERT_EQ(in.size(), 2u);
  const std::string json = analysis::RankSummaryToJson(in[0]);
  auto back = analysis::RankSummaryFromJson(json, "r0.json");
  ASSERT_TRUE(back.ok()) << back.error();
  ASSERT_EQ(back.value().collectives.size(), in[0].collectives.size());
  for (size_t i = 0; i < in[0].collectives.size(); ++i) {
    EXPECT_EQ(back.value().collectives[i].op, in[0].collectives[i].op);
  }
}

// An instance one host lacks (its capture ended early) is unmatched; the rest
// still match by (instruction, ordinal).
TEST(XlaRanks, AnInstructionMissingOnOneHostIsUnmatched) {
  XlaRunPlan plan;
  plan.hosts = 2;
  plan.steps = 3;
  plan.straggler = 1;
  std::vector<RankSummary> in = Summaries(plan);
  ASSERT_EQ(in.size(), 2u);
  // Host 1 lost its last all-gather (its capture ended early).
  in[1].collectives.pop_back();
  const analysis::RanksAnalysis a = analysis::AnalyzeRanks(in);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(a.matched, 5u);
  EXPECT_EQ(a.unmatched, 1u);
}

}  // namespace
}  // namespace stepline::testing
