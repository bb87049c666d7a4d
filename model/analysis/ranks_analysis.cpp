// AnalyzeRanks (see ranks_analysis.h; definitions in docs/analysis.md).
//
// [SECTION] Matching
// [SECTION] Clock offsets and the run check
// [SECTION] Per rank
// [SECTION] The straggler and the recommendation
#include "model/analysis/ranks_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

namespace stepline::analysis {
namespace {

// Median of `v` (mean of the middle two when even, rounded down); 0 when empty.
int64_t Median(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const int64_t hi = v[mid];
  if (v.size() % 2 == 1) return hi;
  const int64_t lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lo + (hi - lo) / 2;
}

// Length of [a, b) covered by the sorted disjoint `busy`.
DurNs Covered(const std::vector<Interval>& busy, TimeNs a, TimeNs b) {
  DurNs n = 0;
  for (const Interval& i : busy) {
    const TimeNs s = std::max(a, i.start_ns), e = std::min(b, i.end_ns);
    if (e > s) n += e - s;
  }
  return n;
}

std::string Ms(DurNs ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

std::string CollectivePhrase(const std::string& name) {
  static const std::pair<std::string_view, std::string_view> kPhrases[] = {
      {"AllReduce", "all-reduce"},         {"AllGather", "all-gather"}, {"ReduceScatter", "reduce-scatter"},
      {"Broadcast", "broadcast"},          {"Reduce", "reduce"},        {"SendRecv", "send/recv"},
      {"AllToAll", "all-to-all"},          {"Send", "send"},            {"Recv", "receive"},
      {"CollectivePermute", "collective-permute"}};
  for (const auto& [k, v] : kPhrases) {
    if (name == k) return std::string(v);
  }
  return "collective";
}

std::string CauseLabel(const std::string& cause, const std::vector<std::string>& blamed) {
  if (cause == "input") {
    return !blamed.empty() && blamed.front().find("DataLoader") != std::string::npos ? "DataLoader" : "input";
  }
  if (cause == "host_compute") return "host compute";
  if (cause == "slow_kernel") return "a slow kernel";
  if (cause == "memcpy_h2d") return "host-to-device copies";
  if (cause == "memcpy_d2h") return "device-to-host copies";
  if (cause == "launch") return "kernel launches";
  if (cause == "graph") return "dependencies inside graph replays";
  if (cause == "other") return "the device idles, no host event to blame";  // e.g. TPU ops: no launch links
  return cause;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Matching
//-----------------------------------------------------------------------------

std::vector<InstanceTiming> MatchInstances(std::span<const RankSummary> ranks, uint64_t* unmatched) {
  // (group, name, XLA op, has seq, seq or ordinal) -> per rank index into its collectives.
  using Key = std::tuple<std::string, std::string, std::string, bool, int64_t>;
  std::map<Key, std::vector<uint32_t>> by_key;
  const uint32_t kAbsent = UINT32_MAX;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const auto& cs = ranks[r].collectives;
    for (size_t i = 0; i < cs.size(); ++i) {
      const CollectiveArrival& c = cs[i];
      Key key{c.group, c.name, c.op, c.seq >= 0, c.seq >= 0 ? c.seq : static_cast<int64_t>(c.ordinal)};
      auto& slot = by_key.try_emplace(std::move(key), ranks.size(), kAbsent).first->second;
      slot[r] = static_cast<uint32_t>(i);
    }
  }
  std::vector<InstanceTiming> out;
  *unmatched = 0;
  for (auto& [key, index] : by_key) {
    const size_t present = static_cast<size_t>(std::count_if(index.begin(), index.end(),
                                                             [&](uint32_t i) { return i != kAbsent; }));
    if (present < ranks.size() || ranks.size() < 2) {
      *unmatched += present;
      continue;
    }
    InstanceTiming t;
    t.group = std::get<0>(key);
    t.name = std::get<1>(key);
    t.op = std::get<2>(key);
    t.key = std::get<4>(key);
    t.index = std::move(index);
    t.arrival.resize(ranks.size());
    for (size_t r = 0; r < ranks.size(); ++r) t.arrival[r] = ranks[r].collectives[t.index[r]].start_ns;
    out.push_back(std::move(t));
  }
  // Time order of the first rank, so lists read like the run.
  std::sort(out.begin(), out.end(), [](const InstanceTiming& a, const InstanceTiming& b) {
    return a.arrival[0] != b.arrival[0] ? a.arrival[0] < b.arrival[0] : a.key < b.key;
  });
  return out;
}

RanksAnalysis AnalyzeRanks(std::span<const RankSummary> ranks) {
  RanksAnalysis out;
  const size_t n = ranks.size();
  out.ranks.resize(n);
  for (size_t r = 0; r < n; ++r) {
    out.ranks[r].input = r;
    out.ranks[r].rank = ranks[r].rank;
  }
  if (n == 0) return out;

  //---------------------------------------------------------------------------
  // [SECTION] Clock offsets and the run check
  //---------------------------------------------------------------------------
  for (const RankSummary& s : ranks) {
    if (s.world_size < 0) continue;
    if (out.world_size < 0) out.world_size = s.world_size;
    if (s.world_size != out.world_size) {
      out.error = "files of different runs: ";
      for (size_t r = 0; r < n; ++r) {
        out.error += (r ? ", " : "") + ranks[r].path + " (world_size " + std::to_string(ranks[r].world_size) + ")";
      }
      return out;
    }
  }
  if (out.world_size > 0) {
    std::vector<bool> seen(static_cast<size_t>(out.world_size), false);
    for (const RankSummary& s : ranks) {
      if (s.rank >= 0 && s.rank < out.world_size) seen[static_cast<size_t>(s.rank)] = true;
    }
    for (int32_t r = 0; r < out.world_size; ++r) {
      if (!seen[static_cast<size_t>(r)]) out.missing_ranks.push_back(r);
    }
  }

  std::vector<InstanceTiming> instances = MatchInstances(ranks, &out.unmatched);
  out.matched = instances.size();
  // The reference clock: the lowest rank.
  size_t ref = 0;
  for (size_t r = 1; r < n; ++r) {
    if (ranks[r].rank < ranks[ref].rank) ref = r;
  }
  for (size_t r = 0; r < n; ++r) {
    if (r == ref || instances.empty()) continue;
    std::vector<int64_t> diffs;
    diffs.reserve(instances.size());
    for (const InstanceTiming& t : instances) {
      diffs.push_back(ranks[r].collectives[t.index[r]].end_ns - ranks[ref].collectives[t.index[ref]].end_ns);
    }
    out.ranks[r].clock_offset_ns = Median(std::move(diffs));
  }
  // After alignment every rank's span must overlap the reference's.
  std::string apart;
  const TimeRange ref_span = ranks[ref].span;
  for (size_t r = 0; r < n; ++r) {
    const DurNs off = out.ranks[r].clock_offset_ns;
    if (ranks[r].span.start_ns - off >= ref_span.end_ns || ranks[r].span.end_ns - off <= ref_span.start_ns) {
      apart += (apart.empty() ? "" : ", ") + ranks[r].path;
    }
  }
  if (!apart.empty()) {
    out.error = "files of different runs (no overlap in time with " + ranks[ref].path + " after alignment): " + apart;
    return out;
  }
  for (InstanceTiming& t : instances) {
    std::vector<int64_t> arrivals(n);
    for (size_t r = 0; r < n; ++r) {
      t.arrival[r] -= out.ranks[r].clock_offset_ns;
      arrivals[r] = t.arrival[r];
    }
    t.last_arrival = *std::max_element(arrivals.begin(), arrivals.end());
    t.median_arrival = Median(std::move(arrivals));
  }

  //---------------------------------------------------------------------------
  // [SECTION] Per rank
  //---------------------------------------------------------------------------
  std::vector<DurNs> wait_in_steps(n, 0), late_sum(n, 0), transfer_ns(n, 0), transfer_overlap(n, 0);
  std::vector<std::vector<DurNs>> step_late(n), step_count(n);
  for (size_t r = 0; r < n; ++r) {
    const size_t steps = static_cast<size_t>(std::max<int64_t>(0, ranks[r].steps));
    step_late[r].assign(steps, 0);
    step_count[r].assign(steps, 0);
  }
  for (const InstanceTiming& t : instances) {
    for (size_t r = 0; r < n; ++r) {
      const CollectiveArrival& c = ranks[r].collectives[t.index[r]];
      const DurNs dur = c.end_ns - c.start_ns;
      const DurNs wait = std::clamp<DurNs>(t.last_arrival - t.arrival[r], 0, dur);
      if (c.step >= 0) wait_in_steps[r] += wait - Covered(c.compute, c.start_ns, c.start_ns + wait);
      late_sum[r] += t.arrival[r] - t.median_arrival;
      if (c.step >= 0 && static_cast<size_t>(c.step) < step_late[r].size()) {
        step_late[r][static_cast<size_t>(c.step)] += t.arrival[r] - t.median_arrival;
        ++step_count[r][static_cast<size_t>(c.step)];
      }
      transfer_ns[r] += dur - wait;
      transfer_overlap[r] += Covered(c.compute, c.start_ns + wait, c.end_ns);
    }
  }
  for (size_t r = 0; r < n; ++r) {
    const RankSummary& s = ranks[r];
    RankRow& row = out.ranks[r];
    row.steps = s.steps;
    row.step_mean_ns = s.step_mean_ns();
    row.matched = instances.size();
    if (s.steps > 0) {
      for (size_t c = 0; c < row.breakdown_per_step.size(); ++c) row.breakdown_per_step[c] = s.breakdown_total[c] / s.steps;
      for (size_t c = 0; c < row.idle_by_cause_per_step.size(); ++c) {
        row.idle_by_cause_per_step[c] = s.idle_by_cause_total[c] / s.steps;
      }
      const DurNs collective = At(s.breakdown_total, TimeCategory::kCollective);
      const DurNs wait = std::min(wait_in_steps[r], collective);
      row.collective_wait_ns_per_step = wait / s.steps;
      row.collective_transfer_ns_per_step = (collective - wait) / s.steps;
    }
    if (!instances.empty()) row.late_ns = late_sum[r] / static_cast<DurNs>(instances.size());
    row.late_by_step.resize(step_late[r].size());
    for (size_t k = 0; k < step_late[r].size(); ++k) {
      row.late_by_step[k] = step_count[r][k] > 0 ? step_late[r][k] / step_count[r][k] : 0;
    }
    if (transfer_ns[r] > 0) row.overlap_percent = 100.0 * static_cast<double>(transfer_overlap[r]) / static_cast<double>(transfer_ns[r]);
  }

  //---------------------------------------------------------------------------
  // [SECTION] The straggler and the recommendation
  //---------------------------------------------------------------------------
  if (instances.empty()) return out;
  size_t worst = 0;
  for (size_t r = 1; r < n; ++r) {
    if (out.ranks[r].late_ns > out.ranks[worst].late_ns) worst = r;
  }
  const RankRow& w = out.ranks[worst];
  if (w.late_ns <= 0 || w.late_ns * 20 <= w.step_mean_ns) return out;  // not above 5% of its step

  Straggler st;
  st.rank = w.rank;
  st.row = worst;
  st.late_ns = w.late_ns;
  const RankSummary& s = ranks[worst];
  CauseNs idle{};
  DurNs late_total = 0;
  std::map<uint32_t, DurNs> blamed;
  std::map<std::string, int> names;
  for (const InstanceTiming& t : instances) {
    const DurNs late = t.arrival[worst] - t.median_arrival;
    if (late <= 0) continue;
    const CollectiveArrival& c = s.collectives[t.index[worst]];
    late_total += late;
    for (size_t k = 0; k < idle.size(); ++k) idle[k] += c.idle_before[k];
    for (const BlamedTime& b : c.blamed) blamed[b.name] += b.ns;
    ++names[c.name];
  }
  st.collective = names.size() == 1 ? names.begin()->first : "";
  const size_t top = static_cast<size_t>(std::max_element(idle.begin(), idle.end()) - idle.begin());
  if (idle[top] * 4 >= late_total && idle[top] > 0) {
    st.cause = std::string(IdleCauseName(static_cast<IdleCause>(top)));
    std::vector<std::pair<DurNs, uint32_t>> order;
    for (const auto& [name, ns] : blamed) order.emplace_back(ns, name);
    std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (size_t i = 0; i < order.size() && i < 3; ++i) st.blamed.push_back(s.names[order[i].second]);
  } else {
    // Late without idling: the compute kernel it spends most extra time in per step.
    DurNs best = 0;
    for (const auto& [name, total] : s.top_kernels) {
      std::vector<int64_t> others;
      for (size_t r = 0; r < n; ++r) {
        if (r == worst || ranks[r].steps <= 0) continue;
        DurNs v = 0;
        for (const auto& [on, ot] : ranks[r].top_kernels) {
          if (on == name) v = ot / ranks[r].steps;
        }
        others.push_back(v);
      }
      const DurNs extra = (s.steps > 0 ? total / s.steps : total) - Median(others);
      if (extra > best) {
        best = extra;
        st.blamed = {name};
      }
    }
    st.cause = st.blamed.empty() ? "other" : "slow_kernel";
  }

  DurNs others_wait = 0, others_step = 0;
  for (size_t r = 0; r < n; ++r) {
    if (r == worst) continue;
    others_wait += out.ranks[r].collective_wait_ns_per_step;
    others_step += out.ranks[r].step_mean_ns;
  }
  const DurNs m = static_cast<DurNs>(n - 1);
  others_wait /= m;
  others_step /= m;
  std::string sentence = "Rank " + std::to_string(st.rank) + " arrives " + Ms(st.late_ns) + " late at each " +
                         CollectivePhrase(st.collective) + " (" + CauseLabel(st.cause, st.blamed);
  if (!st.blamed.empty()) sentence += ": `" + st.blamed.front() + "`";
  sentence += "); ";
  sentence += n == 2 ? "the other rank waits " : "the other " + std::to_string(n - 1) + " ranks wait ";
  sentence += Ms(others_wait) + " per step for it";
  if (others_step > 0) {
    sentence += ", " + std::to_string(static_cast<int>(std::lround(100.0 * static_cast<double>(others_wait) /
                                                                    static_cast<double>(others_step)))) +
                "% of their step";
  }
  sentence += ".";
  out.recommendations.push_back(std::move(sentence));
  out.straggler = std::move(st);
  return out;
}

}  // namespace stepline::analysis
