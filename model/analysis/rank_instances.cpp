// AlignedInstances, hit-testing an instance, a step's aligned window (see rank_instances.h).
#include "model/analysis/rank_instances.h"

#include <algorithm>

namespace stepline::analysis {

AlignedInstances AlignInstances(std::span<const RankSummary> ranks, const RanksAnalysis& analysis) {
  AlignedInstances out;
  out.offset.assign(ranks.size(), 0);
  for (const RankRow& row : analysis.ranks) {
    if (row.input < ranks.size()) out.offset[row.input] = row.clock_offset_ns;
  }
  out.of_collective.resize(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) out.of_collective[r].assign(ranks[r].collectives.size(), kNoInstance);
  uint64_t unmatched = 0;
  out.instances = MatchInstances(ranks, &unmatched);
  for (size_t k = 0; k < out.instances.size(); ++k) {
    InstanceTiming& t = out.instances[k];
    for (size_t r = 0; r < ranks.size(); ++r) {
      t.arrival[r] -= out.offset[r];
      out.of_collective[r][t.index[r]] = static_cast<uint32_t>(k);
    }
    std::vector<TimeNs> sorted = t.arrival;
    std::sort(sorted.begin(), sorted.end());
    t.last_arrival = sorted.back();
    // The median as AnalyzeRanks takes it: the mean of the middle two, rounded down.
    const size_t mid = sorted.size() / 2;
    t.median_arrival = sorted.size() % 2 ? sorted[mid] : sorted[mid - 1] + (sorted[mid] - sorted[mid - 1]) / 2;
  }
  return out;
}

InstanceSpan SpanOnRank(const AlignedInstances& a, std::span<const RankSummary> ranks, uint32_t instance, size_t rank) {
  const InstanceTiming& t = a.instances[instance];
  const CollectiveArrival& c = ranks[rank].collectives[t.index[rank]];
  InstanceSpan s;
  s.arrival = t.arrival[rank];
  s.end = c.end_ns - a.offset[rank];
  s.wait_end = std::clamp(t.last_arrival, s.arrival, s.end);
  return s;
}

std::optional<uint32_t> InstanceAt(const AlignedInstances& a, std::span<const RankSummary> ranks, size_t rank, TimeNs t,
                                   DurNs slop_ns) {
  if (rank >= ranks.size() || rank >= a.of_collective.size()) return std::nullopt;
  const std::vector<CollectiveArrival>& cs = ranks[rank].collectives;
  const TimeNs own = t + a.offset[rank];
  // Collectives are in start order; ones on other streams may overlap, so
  // look back a few from the last one starting by the (slopped) time.
  const auto last = std::upper_bound(cs.begin(), cs.end(), own + slop_ns,
                                     [](TimeNs v, const CollectiveArrival& c) { return v < c.start_ns; });
  const size_t hi = static_cast<size_t>(last - cs.begin());
  std::optional<uint32_t> best;
  DurNs best_dist = slop_ns + 1;
  constexpr size_t kLookBack = 64;
  for (size_t i = hi; i > 0 && hi - i < kLookBack; --i) {
    const CollectiveArrival& c = cs[i - 1];
    const uint32_t k = a.of_collective[rank][i - 1];
    if (k == kNoInstance) continue;
    const DurNs dist = own < c.start_ns ? c.start_ns - own : own >= c.end_ns ? own - c.end_ns + 1 : 0;
    if (dist < best_dist) {
      best_dist = dist;
      best = k;
    }
  }
  return best;
}

std::optional<TimeRange> AlignedStepWindow(std::span<const RankSummary> ranks, const RanksAnalysis& analysis,
                                           size_t step, TimeNs* origin) {
  std::optional<TimeRange> window;
  int32_t origin_rank = INT32_MAX;
  for (const RankRow& row : analysis.ranks) {
    if (row.input >= ranks.size()) continue;
    const RankSummary& s = ranks[row.input];
    if (step >= s.lanes.steps.size()) continue;
    const TimeRange st{s.lanes.steps[step].start_ns - row.clock_offset_ns,
                       s.lanes.steps[step].end_ns - row.clock_offset_ns};
    if (!window) {
      window = st;
    } else {
      window->start_ns = std::min(window->start_ns, st.start_ns);
      window->end_ns = std::max(window->end_ns, st.end_ns);
    }
    if (s.rank < origin_rank) {
      origin_rank = s.rank;
      *origin = st.start_ns;
    }
  }
  return window;
}

}  // namespace stepline::analysis
