// The ranks timeline's model: the per-rank busy bins against a
// nanosecond-by-nanosecond count, reading them back per pixel, the lanes of
// a ddp-straggler demo rank against its own kernels, and the aligned
// instances: a click on one rank's collective finds the same instance on
// every rank, on clocks skewed apart, and a step's window across the ranks.
#include <gtest/gtest.h>

#include <random>

#include "demo/demo_ddp.h"
#include "loaders/load.h"
#include "model/analysis/rank_detail.h"
#include "model/analysis/rank_instances.h"
#include "model/analysis/rank_lanes.h"

namespace stepline::analysis {
namespace {

// The covered share of each bin counted one nanosecond at a time; bin b is
// the real interval [start + b * len / bins, start + (b + 1) * len / bins).
std::vector<double> BruteForceShares(const std::vector<Interval>& intervals, TimeRange range, size_t bins) {
  const DurNs len = range.duration_ns();
  std::vector<bool> covered(static_cast<size_t>(len), false);
  for (const Interval& iv : intervals) {
    for (TimeNs t = std::max(iv.start_ns, range.start_ns); t < std::min(iv.end_ns, range.end_ns); ++t) {
      covered[static_cast<size_t>(t - range.start_ns)] = true;
    }
  }
  const double bin_ns = static_cast<double>(len) / static_cast<double>(bins);
  std::vector<double> share(bins, 0.0);
  for (size_t b = 0; b < bins; ++b) {
    const double lo = static_cast<double>(b) * bin_ns, hi = lo + bin_ns;
    for (TimeNs i = std::max<TimeNs>(0, static_cast<TimeNs>(lo) - 1);
         i < std::min<TimeNs>(len, static_cast<TimeNs>(hi) + 1); ++i) {
      const double overlap = std::min(hi, static_cast<double>(i + 1)) - std::max(lo, static_cast<double>(i));
      if (covered[static_cast<size_t>(i)] && overlap > 0) share[b] += overlap / bin_ns;
    }
  }
  return share;
}

TEST(RankLanesTest, BusyShareBinsMatchACountOfEveryNanosecond) {
  std::mt19937 rng(7);
  for (size_t bins : {1u, 7u, 64u, 100u}) {
    for (int round = 0; round < 20; ++round) {
      const TimeRange range{1000, 1000 + 500 + static_cast<TimeNs>(rng() % 2000)};
      std::vector<Interval> intervals;
      const int n = static_cast<int>(rng() % 30);
      for (int i = 0; i < n; ++i) {
        // Some start before and end after the range, some overlap, some are empty.
        const TimeNs s = 900 + static_cast<TimeNs>(rng() % 2800);
        intervals.push_back({s, s + static_cast<TimeNs>(rng() % 300)});
      }
      const std::vector<uint8_t> got = BusyShareBins(intervals, range, bins);
      const std::vector<double> want = BruteForceShares(intervals, range, bins);
      ASSERT_EQ(got.size(), bins);
      for (size_t b = 0; b < bins; ++b) {
        EXPECT_NEAR(got[b] / 255.0, std::min(1.0, want[b]), 0.5 / 255 + 1e-4) << "bins " << bins << " bin " << b;
      }
    }
  }
  EXPECT_TRUE(BusyShareBins({{0, 10}}, TimeRange{5, 5}, 4) == std::vector<uint8_t>(4, 0));
}

TEST(RankLanesTest, BusyInReadsABinOrTheWeightedMeanOfSeveral) {
  RankLanes lanes;
  lanes.range = {0, 400};
  lanes.busy[0] = {255, 0, 51, 255};  // bins of 100 ns: 1, 0, 0.2, 1
  lanes.busy[1] = lanes.busy[2] = std::vector<uint8_t>(4, 0);
  EXPECT_FLOAT_EQ(lanes.BusyIn(RankLane::kCompute, 0, 100), 1.f);
  EXPECT_FLOAT_EQ(lanes.BusyIn(RankLane::kCompute, 10, 20), 1.f);  // narrower than a bin
  EXPECT_FLOAT_EQ(lanes.BusyIn(RankLane::kCompute, 50, 150), 0.5f);
  EXPECT_NEAR(lanes.BusyIn(RankLane::kCompute, 0, 400), (1 + 0 + 0.2 + 1) / 4.0, 1e-6);
  EXPECT_NEAR(lanes.BusyIn(RankLane::kCompute, 250, 1000), (0.5 * 0.2 + 1) / 1.5, 1e-6);  // clipped to the range
  EXPECT_FLOAT_EQ(lanes.BusyIn(RankLane::kCompute, 500, 600), 0.f);
  EXPECT_FLOAT_EQ(lanes.BusyIn(RankLane::kCollective, 0, 400), 0.f);
  EXPECT_EQ(lanes.BinRange(2), (TimeRange{200, 300}));
}

// A Kineto trace of one GPU whose `streams` compute streams (7, 8, ...) run
// 1, 2, ... 10-us kernels, one every 100 us, stream 7 first; stream s is
// busy (s - 6) * 10 us.
Trace StreamsTrace(int streams) {
  std::string json = "{\"traceEvents\":[\n";
  for (int k = 0; k < streams; ++k) {
    for (int i = 0; i <= k; ++i) {
      const int start_us = 1000 + k * 1000 + i * 100;
      json += "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":" + std::to_string(7 + k) +
              ",\"ts\":" + std::to_string(start_us) + ",\"dur\":10,\"args\":{\"device\":0,\"stream\":" +
              std::to_string(7 + k) + "}},\n";
    }
  }
  json += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"main\",\"pid\":1,\"tid\":1,\"ts\":1000,\"dur\":" +
          std::to_string(streams * 1000) + "}]}";
  auto trace = loaders::LoadBytes(json, "streams.json");
  EXPECT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
  return std::move(trace).value();
}

TEST(RankLanesTest, ComputeLanesPerStreamAreBoundedAndInStreamOrder) {
  // One stream: the merged compute lane only.
  {
    const Trace t = StreamsTrace(1);
    EXPECT_TRUE(SummarizeRankLanes(t, ComputeAnalysis(t), 64).compute_streams.empty());
  }
  // Three streams: a lane each, in stream order, each its own kernels' bins.
  {
    const Trace t = StreamsTrace(3);
    const RankLanes lanes = SummarizeRankLanes(t, ComputeAnalysis(t), 64);
    ASSERT_EQ(lanes.compute_streams.size(), 3u);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NE(lanes.compute_streams[size_t(k)].name.find(std::to_string(7 + k)), std::string::npos)
          << lanes.compute_streams[size_t(k)].name;
      std::vector<Interval> own;
      for (int i = 0; i <= k; ++i) {
        const TimeNs s = (1000 + k * 1000 + i * 100) * 1000LL;
        own.push_back({s, s + 10'000});
      }
      EXPECT_EQ(lanes.compute_streams[size_t(k)].busy, BusyShareBins(own, lanes.range, 64)) << k;
    }
  }
  // Six streams: the 3 busiest (streams 10, 11, 12) in stream order, then the other 3 merged.
  {
    const Trace t = StreamsTrace(6);
    const RankLanes lanes = SummarizeRankLanes(t, ComputeAnalysis(t), 256);
    ASSERT_EQ(lanes.compute_streams.size(), kRankStreamLanes);
    EXPECT_NE(lanes.compute_streams[0].name.find("10"), std::string::npos) << lanes.compute_streams[0].name;
    EXPECT_NE(lanes.compute_streams[2].name.find("12"), std::string::npos) << lanes.compute_streams[2].name;
    EXPECT_EQ(lanes.compute_streams[3].name, "3 other streams");
    // The merged lane covers streams 7..9's time (1 + 2 + 3 kernels), nothing of the others'.
    // (bins of ~23.5 us: a 10-us kernel is a share of its bin)
    EXPECT_GT(lanes.BusyIn(lanes.compute_streams[3].busy, 1'000'000, 1'010'000), 0.f);
    EXPECT_FLOAT_EQ(lanes.BusyIn(lanes.compute_streams[0].busy, 1'000'000, 1'010'000), 0.f);
    EXPECT_FLOAT_EQ(lanes.BusyIn(lanes.compute_streams[3].busy, 4'000'000, 7'000'000), 0.f);
    EXPECT_GT(lanes.BusyIn(lanes.compute_streams[0].busy, 4'000'000, 4'010'000), 0.f);  // stream 10's first kernel
  }
}

struct RankDemo {
  std::vector<RankSummary> ranks;
  RanksAnalysis analysis;
};

RankDemo MakeDemo(DurNs skew_ns) {
  demo::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 4;
  o.kernels_per_step = 6;
  o.skew_ns = skew_ns;
  const demo::DdpDemo demo(o);
  RankDemo d;
  for (int r = 0; r < o.ranks; ++r) {
    auto trace = loaders::LoadBytes(demo.RankJson(r), "rank" + std::to_string(r) + ".json");
    EXPECT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
    if (!trace) continue;
    d.ranks.push_back(SummarizeRank(trace.value(), ComputeAnalysis(trace.value()), "rank" + std::to_string(r)));
  }
  d.analysis = AnalyzeRanks(d.ranks);
  return d;
}

TEST(RankLanesTest, DemoRankLanesHoldItsKernelsHostThreadAndSteps) {
  demo::DdpDemoOptions o;
  o.ranks = 4;
  o.steps = 4;
  o.kernels_per_step = 6;
  const demo::DdpDemo demo(o);
  auto trace = loaders::LoadBytes(demo.RankJson(1), "rank1.json");
  ASSERT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
  const TraceAnalysis a = ComputeAnalysis(trace.value());
  const RankLanes lanes = SummarizeRankLanes(trace.value(), a, 512);
  ASSERT_EQ(lanes.bins(), 512u);
  EXPECT_EQ(lanes.range, trace.value().span());
  EXPECT_EQ(lanes.steps.size(), 4u);
  EXPECT_FALSE(lanes.host_thread.empty());
  // Each lane's bins add up to its kernels' merged time, within rounding.
  std::vector<Interval> compute, collective;
  for (const DeviceOp& op : a.primary()->activity.ops) {
    if (op.kind == GpuKind::kKernel) compute.push_back({op.start_ns, op.end_ns});
    if (op.kind == GpuKind::kCollective) collective.push_back({op.start_ns, op.end_ns});
  }
  const double bin_ns = static_cast<double>(lanes.range.duration_ns()) / 512.0;
  for (auto [lane, intervals] :
       {std::pair{RankLane::kCompute, compute}, std::pair{RankLane::kCollective, collective}}) {
    DurNs truth = 0;
    for (const Interval& iv : MergeIntervals(intervals)) truth += iv.dur_ns();
    double sum = 0;
    for (uint8_t v : lanes.busy[static_cast<size_t>(lane)]) sum += v / 255.0 * bin_ns;
    ASSERT_GT(truth, 0);
    EXPECT_NEAR(sum, static_cast<double>(truth), 512 * 0.5 / 255 * bin_ns) << static_cast<int>(lane);
  }
  double host = 0;
  for (uint8_t v : lanes.busy[static_cast<size_t>(RankLane::kHost)]) host += v;
  EXPECT_GT(host, 0);
}

TEST(RankLanesTest, AClickOnACollectiveFindsTheSameInstanceOnEveryRankDespiteSkew) {
  const DurNs skew = 3'000'000'000;  // rank r's clock is r * 3 s ahead
  const RankDemo d = MakeDemo(skew);
  ASSERT_EQ(d.analysis.error, "");
  const AlignedInstances in = AlignInstances(d.ranks, d.analysis);
  ASSERT_EQ(in.instances.size(), 4u);  // one all-reduce per step
  for (size_t r = 0; r < d.ranks.size(); ++r) {
    EXPECT_NEAR(static_cast<double>(in.offset[r]), static_cast<double>(r * skew), 1e6);  // within 1 ms
  }
  const std::span<const RankSummary> ranks(d.ranks);
  for (uint32_t k = 0; k < in.instances.size(); ++k) {
    const InstanceTiming& t = in.instances[k];
    // Click the middle of rank 3's kernel of this instance, on the aligned clock.
    const CollectiveArrival& c = d.ranks[3].collectives[t.index[3]];
    const TimeNs mid = (c.start_ns + c.end_ns) / 2 - in.offset[3];
    ASSERT_EQ(InstanceAt(in, ranks, 3, mid, 0), std::optional<uint32_t>(k));
    TimeNs first = INT64_MAX, last = INT64_MIN;
    for (size_t r = 0; r < d.ranks.size(); ++r) {
      const InstanceSpan sp = SpanOnRank(in, ranks, k, r);
      const CollectiveArrival& cr = d.ranks[r].collectives[t.index[r]];
      EXPECT_EQ(sp.arrival, cr.start_ns - in.offset[r]);
      EXPECT_EQ(sp.end, cr.end_ns - in.offset[r]);
      EXPECT_LE(sp.arrival, sp.wait_end);
      EXPECT_LE(sp.wait_end, sp.end);
      first = std::min(first, sp.arrival);
      last = std::max(last, sp.arrival);
      EXPECT_EQ(in.of_collective[r][t.index[r]], k);
    }
    // Aligned, the ranks arrive within a step of each other, not seconds apart.
    EXPECT_LT(last - first, d.ranks[0].step_mean_ns());
    EXPECT_EQ(t.last_arrival, last);
  }
  // Just past a kernel's end: found with a slop, not without.
  const CollectiveArrival& c0 = d.ranks[0].collectives[in.instances[1].index[0]];
  EXPECT_FALSE(InstanceAt(in, ranks, 0, c0.end_ns + 1000, 0).has_value());
  EXPECT_EQ(InstanceAt(in, ranks, 0, c0.end_ns + 1000, 5000), std::optional<uint32_t>(1));
  EXPECT_FALSE(InstanceAt(in, ranks, 0, d.ranks[0].span.start_ns - 1'000'000'000, 5000).has_value());
  EXPECT_FALSE(InstanceAt(in, ranks, 9, c0.start_ns, 0).has_value());  // no such rank
}

TEST(RankLanesTest, AStepWindowSpansEveryRanksStepOnTheAlignedClock) {
  const RankDemo d = MakeDemo(2'000'000'000);
  ASSERT_EQ(d.analysis.error, "");
  TimeNs origin = 0;
  const std::optional<TimeRange> w = AlignedStepWindow(d.ranks, d.analysis, 2, &origin);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(origin, d.ranks[0].lanes.steps[2].start_ns);  // rank 0 is the reference clock
  for (size_t r = 0; r < d.ranks.size(); ++r) {
    const DurNs off = d.analysis.ranks[r].clock_offset_ns;
    EXPECT_LE(w->start_ns, d.ranks[r].lanes.steps[2].start_ns - off);
    EXPECT_GE(w->end_ns, d.ranks[r].lanes.steps[2].end_ns - off);
  }
  // Aligned, the window is about one step long, not the skew.
  EXPECT_LT(w->duration_ns(), 2 * d.ranks[0].step_mean_ns());
  EXPECT_FALSE(AlignedStepWindow(d.ranks, d.analysis, 4, &origin).has_value());
}

// A rank's detail holds the same slices as its summary, lane by lane: the
// six streams' kernels in the summary's four compute lanes, and RowsIn finds
// every row overlapping a window (and nothing past it) on overlapping rows.
TEST(RankDetailTest, DetailLanesHoldTheSummarysSlicesLaneByLane) {
  const Trace t = StreamsTrace(6);
  const TraceAnalysis a = ComputeAnalysis(t);
  const RankLanes lanes = SummarizeRankLanes(t, a, 256);
  const RankDetail d = ExtractRankDetail(t, a);
  ASSERT_EQ(d.compute.size(), lanes.compute_streams.size());
  for (size_t l = 0; l < d.compute.size(); ++l) {
    std::vector<Interval> rows;
    for (size_t i = 0; i < d.compute[l].size(); ++i) rows.push_back({d.compute[l].start_ns[i], d.compute[l].end_ns[i]});
    EXPECT_EQ(BusyShareBins(rows, lanes.range, 256), lanes.compute_streams[l].busy) << l;
    EXPECT_TRUE(std::is_sorted(d.compute[l].start_ns.begin(), d.compute[l].start_ns.end()));
  }
  EXPECT_EQ(d.compute[3].size(), 6u);  // streams 7..9: 1 + 2 + 3 kernels merged in the last lane
  EXPECT_FALSE(d.names.empty());
  EXPECT_GT(d.bytes(), 0u);
}

TEST(RankDetailTest, RowsInFindsEveryOverlappingRowOfOverlappingSlices) {
  std::mt19937 rng(7);
  DetailLane lane;
  std::vector<std::pair<TimeNs, TimeNs>> rows;
  for (int i = 0; i < 300; ++i) {
    const TimeNs s = static_cast<TimeNs>(rng() % 100'000);
    rows.push_back({s, s + static_cast<TimeNs>(rng() % (i % 10 == 0 ? 20'000 : 500))});
  }
  std::sort(rows.begin(), rows.end());
  TimeNs max_end = INT64_MIN;
  for (auto [s, e] : rows) {
    max_end = std::max(max_end, e);
    lane.start_ns.push_back(s);
    lane.end_ns.push_back(e);
    lane.max_end_ns.push_back(max_end);
    lane.name.push_back(0);
  }
  for (int q = 0; q < 200; ++q) {
    const TimeNs t0 = static_cast<TimeNs>(rng() % 110'000) - 5'000, t1 = t0 + static_cast<TimeNs>(rng() % 3'000) + 1;
    const auto [first, last] = lane.RowsIn(t0, t1);
    for (size_t i = 0; i < lane.size(); ++i) {
      const bool overlaps = lane.start_ns[i] < t1 && lane.end_ns[i] > t0;
      if (overlaps) {
        EXPECT_TRUE(i >= first && i < last) << i << " of [" << t0 << ", " << t1 << ")";
      }
      if (i >= last) {
        EXPECT_GE(lane.start_ns[i], t1);
      }
    }
  }
}

// The demo's rank 1 with its clock skewed: the detail's kernels are the
// trace's own, on its own clock (the view subtracts the offset).
TEST(RankDetailTest, DemoRankDetailIsItsKernelsAndMainThreadOnItsOwnClock) {
  demo::DdpDemoOptions o;
  o.ranks = 2;
  o.steps = 2;
  o.kernels_per_step = 4;
  o.skew_ns = 5'000'000;
  const demo::DdpDemo demo(o);
  auto trace = loaders::LoadBytes(demo.RankJson(1), "rank1.json");
  ASSERT_TRUE(static_cast<bool>(trace)) << trace.error().ToString();
  const TraceAnalysis a = ComputeAnalysis(trace.value());
  const RankDetail d = ExtractRankDetail(trace.value(), a);
  ASSERT_EQ(d.compute.size(), 1u);
  std::vector<TimeNs> kernels, collectives;
  for (const DeviceOp& op : a.primary()->activity.ops) {
    if (op.kind == GpuKind::kKernel) kernels.push_back(op.start_ns);
    if (op.kind == GpuKind::kCollective) collectives.push_back(op.start_ns);
  }
  EXPECT_EQ(d.compute[0].start_ns, kernels);
  EXPECT_EQ(d.collective.start_ns, collectives);
  EXPECT_EQ(d.collective.size(), 2u);  // one all-reduce per step
  ASSERT_GT(d.host.size(), 0u);
  bool dataloader = false;
  for (uint32_t n : d.host.name) dataloader = dataloader || d.names[n] == demo::kDdpInputEventName;
  EXPECT_TRUE(dataloader);
  // Each slice names its stream or thread: the kernels' and the collectives' streams differ.
  ASSERT_EQ(d.compute[0].track.size(), d.compute[0].size());
  EXPECT_NE(d.names[d.compute[0].track[0]], d.names[d.collective.track[0]]);
  EXPECT_NE(d.names[d.collective.track[0]].find("tream"), std::string::npos) << d.names[d.collective.track[0]];
}

}  // namespace
}  // namespace stepline::analysis
