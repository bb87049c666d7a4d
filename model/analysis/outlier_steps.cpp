// Outlier steps (see outlier_steps.h).
//
// Host events are compared by name: an outlier's time in each name against
// that name's median time over the typical (non-outlier) steps. Only names
// seen in an outlier step are tallied, so the cost is one pass over the host
// slices plus names x steps for those few names. A blamed event's children
// are usually blamed too (they are absent from typical steps as well), and so
// is the step function around it (much shorter in typical steps): a name
// inside a kept one, or around one with barely more excess, is dropped, so
// `save` is listed rather than `_save` under it or `train_step` above it.
#include "model/analysis/outlier_steps.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "model/ascii_case.h"

namespace stepline::analysis {
namespace {

DurNs MedianOf(std::vector<DurNs> v) {
  if (v.empty()) return 0;
  const size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const DurNs upper = v[mid];
  const DurNs lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

// Index of the first step whose window ends after `t` (windows are disjoint
// and sorted, so their ends are sorted too).
size_t FirstStepEndingAfter(const std::vector<Step>& steps, TimeNs t) {
  return static_cast<size_t>(
      std::partition_point(steps.begin(), steps.end(), [&](const Step& s) { return s.window_end_ns() <= t; }) -
      steps.begin());
}

// Calls f(step index, overlap) for every step window the slice overlaps,
// skipping steps it wraps entirely (the step's own marker, an outer loop).
template <typename F>
void ForEachStepOverlap(const std::vector<Step>& steps, TimeNs start, TimeNs end, F&& f) {
  for (size_t k = FirstStepEndingAfter(steps, start); k < steps.size() && steps[k].start_ns < end; ++k) {
    const Step& s = steps[k];
    if (start <= s.start_ns && end >= s.end_ns()) continue;
    const DurNs overlap = std::min(end, s.window_end_ns()) - std::max(start, s.start_ns);
    if (overlap > 0) f(k, overlap);
  }
}

// One name's time per step, sparse (memory stays O(slices) on 10,000-step
// traces): (step, ns) sorted by step after Merge, and its intervals in
// outlier steps as (outlier index, interval).
struct NameTally {
  std::vector<std::pair<uint32_t, DurNs>> per_step;
  std::vector<std::pair<uint32_t, TimeRange>> outlier_ranges;
  DurNs typical_ns = 0;  // median time over the typical steps (absent = 0)

  void Merge() {
    std::sort(per_step.begin(), per_step.end());
    size_t w = 0;
    for (size_t r = 0; r < per_step.size(); ++r) {
      if (w > 0 && per_step[w - 1].first == per_step[r].first) {
        per_step[w - 1].second += per_step[r].second;
      } else {
        per_step[w++] = per_step[r];
      }
    }
    per_step.resize(w);
    std::sort(outlier_ranges.begin(), outlier_ranges.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  }
};

// Median of `typical_count` values of which `nonzero` are the non-zero ones.
DurNs MedianWithZeros(std::vector<DurNs> nonzero, size_t typical_count) {
  if (typical_count == 0) return 0;
  std::sort(nonzero.begin(), nonzero.end());
  const size_t zeros = typical_count - nonzero.size();
  auto at = [&](size_t i) { return i < zeros ? DurNs{0} : nonzero[i - zeros]; };
  const size_t mid = typical_count / 2;
  if (typical_count % 2 == 1) return at(mid);
  const DurNs lower = at(mid - 1), upper = at(mid);
  return lower + (upper - lower) / 2;
}

bool Contains(const std::vector<TimeRange>& outer, const TimeRange& r) {
  for (const TimeRange& o : outer) {
    if (o.start_ns <= r.start_ns && o.end_ns >= r.end_ns) return true;
  }
  return false;
}

std::string Duration(DurNs ns) {
  char buf[48];
  const double v = static_cast<double>(ns);
  if (ns >= 1'000'000'000) {
    std::snprintf(buf, sizeof buf, "%.2f s", v / 1e9);
  } else if (ns >= 10'000'000) {
    std::snprintf(buf, sizeof buf, "%.0f ms", v / 1e6);
  } else if (ns >= 1'000'000) {
    std::snprintf(buf, sizeof buf, "%.1f ms", v / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f us", v / 1e3);
  }
  return buf;
}

}  // namespace

DurNs OutlierThresholdNs(std::vector<DurNs> durations, DurNs* median_ns, DurNs* mad_ns) {
  if (durations.size() < kOutlierMinSteps) return 0;
  const DurNs median = MedianOf(durations);
  std::vector<DurNs> deviation;
  deviation.reserve(durations.size());
  for (DurNs d : durations) deviation.push_back(d > median ? d - median : median - d);
  const DurNs mad = MedianOf(std::move(deviation));
  if (median_ns != nullptr) *median_ns = median;
  if (mad_ns != nullptr) *mad_ns = mad;
  const double margin =
      std::max(kOutlierMadFactor * static_cast<double>(mad), kOutlierMedianShare * static_cast<double>(median));
  return median + static_cast<DurNs>(margin);
}

OutlierSteps ComputeOutlierSteps(const Trace& trace, const StepSet& set, std::span<const StepBreakdown> breakdowns) {
  OutlierSteps out;
  const std::vector<Step>& steps = set.steps;
  std::vector<DurNs> durations;
  for (const Step& s : steps) durations.push_back(s.dur_ns);
  out.threshold_ns = OutlierThresholdNs(durations, &out.median_ns, &out.mad_ns);
  if (out.threshold_ns == 0) return out;
  std::vector<int32_t> outlier_of(steps.size(), -1);  // per step: index into out.steps
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].dur_ns <= out.threshold_ns) continue;
    outlier_of[k] = static_cast<int32_t>(out.steps.size());
    out.steps.push_back(
        OutlierStep{static_cast<uint32_t>(k), steps[k].dur_ns - out.median_ns, false, TimeCategory::kIdleOther, {}});
    out.excess_total_ns += steps[k].dur_ns - out.median_ns;
  }
  if (out.steps.empty()) return out;

  // The category that grew most against the median step.
  if (breakdowns.size() == steps.size()) {
    CategoryNs median_category{};
    for (size_t c = 0; c < static_cast<size_t>(kTimeCategoryCount); ++c) {
      std::vector<DurNs> v;
      for (const StepBreakdown& b : breakdowns) v.push_back(b.category_ns[c]);
      median_category[c] = MedianOf(std::move(v));
    }
    for (OutlierStep& o : out.steps) {
      DurNs best = 0;
      for (size_t c = 0; c < static_cast<size_t>(kTimeCategoryCount); ++c) {
        const DurNs growth = breakdowns[o.step].category_ns[c] - median_category[c];
        if (growth > best) {
          best = growth;
          o.has_cause = true;
          o.cause = static_cast<TimeCategory>(c);
        }
      }
    }
  }

  // Host events: names seen in an outlier step, then their time in every step.
  const SliceTable& sl = trace.slices();
  StepMarkerMatcher markers(trace);
  std::vector<uint32_t> host_slices;
  std::vector<uint8_t> candidate(trace.strings().size(), 0);
  for (size_t t = 0; t < trace.tracks().size(); ++t) {
    const TrackId track = TrackId::FromIndex(t);
    if (trace.tracks().kind(track) != TrackKind::kHostThread) continue;
    const auto& r = trace.tracks().ranges(track);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      const TimeNs start = sl.start_ns()[i], end = start + sl.dur_ns()[i];
      if (end <= start || markers.IsMarkerName(SliceId(i))) continue;  // step_num markers wrap their step
      host_slices.push_back(i);
      ForEachStepOverlap(steps, start, end, [&](size_t k, DurNs) {
        if (outlier_of[k] >= 0) candidate[sl.name()[i].index()] = 1;
      });
    }
  }
  std::unordered_map<uint32_t, NameTally> tallies;
  for (uint32_t i : host_slices) {
    const StringId name = sl.name()[i];
    if (!candidate[name.index()]) continue;
    const SliceId parent = sl.parent()[i];
    if (!parent.is_none() && sl.name()[parent.index()] == name) continue;  // recursion: the outer one counts
    const TimeNs start = sl.start_ns()[i], end = start + sl.dur_ns()[i];
    NameTally& tally = tallies[name.value];
    ForEachStepOverlap(steps, start, end, [&](size_t k, DurNs overlap) {
      tally.per_step.emplace_back(static_cast<uint32_t>(k), overlap);
      if (outlier_of[k] >= 0) tally.outlier_ranges.push_back({static_cast<uint32_t>(outlier_of[k]), {start, end}});
    });
  }

  // Each name's typical time once, then its candidacy in each outlier it
  // occurs in: work in the number of (name, step) entries, never names x steps.
  struct Candidate {
    OutlierBlame blame;
    DurNs typical_ns;
    std::vector<TimeRange> ranges;  // its intervals in this outlier step
  };
  std::vector<std::vector<Candidate>> candidates_of(out.steps.size());
  const size_t typical_count = steps.size() - out.steps.size();
  std::vector<DurNs> typical;
  for (auto& [name, tally] : tallies) {
    tally.Merge();
    typical.clear();
    for (const auto& [k, ns] : tally.per_step) {
      if (outlier_of[k] < 0) typical.push_back(ns);
    }
    tally.typical_ns = MedianWithZeros(typical, typical_count);
    for (const auto& [k, in_outlier] : tally.per_step) {
      if (outlier_of[k] < 0) continue;
      const uint32_t o = static_cast<uint32_t>(outlier_of[k]);
      const DurNs min_excess =
          std::max<DurNs>(1, static_cast<DurNs>(kBlameMinShare * static_cast<double>(out.steps[o].excess_ns)));
      const DurNs excess = in_outlier - tally.typical_ns;
      if (excess < min_excess || 2 * tally.typical_ns > in_outlier) continue;
      Candidate c{{StringId(name), excess}, tally.typical_ns, {}};
      auto [lo, hi] = std::equal_range(tally.outlier_ranges.begin(), tally.outlier_ranges.end(),
                                       std::pair<uint32_t, TimeRange>{o, {}},
                                       [](const auto& x, const auto& y) { return x.first < y.first; });
      for (auto it = lo; it != hi; ++it) c.ranges.push_back(it->second);
      candidates_of[o].push_back(std::move(c));
    }
  }

  for (size_t o = 0; o < out.steps.size(); ++o) {
    OutlierStep& step = out.steps[o];
    std::vector<Candidate>& candidates = candidates_of[o];
    // Events absent from typical steps first, then those much shorter there;
    // each by excess. A candidate inside a kept one adds nothing; one around a
    // kept one with little more excess (the step function calling `save`) is
    // explained by it.
    std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
      if ((a.typical_ns > 0) != (b.typical_ns > 0)) return a.typical_ns == 0;
      if (a.blame.excess_ns != b.blame.excess_ns) return a.blame.excess_ns > b.blame.excess_ns;
      return a.blame.name.value < b.blame.name.value;
    });
    auto inside = [&](const Candidate& inner, const Candidate& outer) {
      return std::all_of(inner.ranges.begin(), inner.ranges.end(),
                         [&](const TimeRange& r) { return Contains(outer.ranges, r); });
    };
    std::vector<const Candidate*> kept;
    for (const Candidate& c : candidates) {
      const bool redundant = std::any_of(kept.begin(), kept.end(), [&](const Candidate* k) {
        return inside(c, *k) || (inside(*k, c) && 5 * c.blame.excess_ns <= 6 * k->blame.excess_ns);
      });
      if (!redundant) kept.push_back(&c);
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const Candidate* a, const Candidate* b) { return a->blame.excess_ns > b->blame.excess_ns; });
    for (size_t i = 0; i < kept.size() && i < kMaxBlamedEvents; ++i) step.blamed.push_back(kept[i]->blame);
  }
  return out;
}

std::string ShortEventName(std::string_view name) {
  if (!IsPythonFrameName(name)) return std::string(name);
  const size_t colon = name.find("): ", name.find(".py("));
  std::string_view func = name.substr(colon + 3);
  while (!func.empty() && func.front() == ' ') func.remove_prefix(1);
  return func.empty() ? std::string(name) : std::string(func);
}

std::string OutlierRecommendation(const Trace& trace, const OutlierSteps& outliers, size_t step_count, DurNs total_ns) {
  if (outliers.steps.empty() || total_ns <= 0) return "";
  if (20 * outliers.excess_total_ns < total_ns) return "";  // under 5% of the time
  const size_t n = outliers.steps.size();
  const DurNs mean_excess = outliers.excess_total_ns / static_cast<DurNs>(n);
  std::string s =
      std::to_string(n) + " of " + std::to_string(step_count) + " steps are " + Duration(mean_excess) + " slower";
  // The event blamed first in the most outliers (ties: more excess).
  std::unordered_map<uint32_t, std::pair<size_t, DurNs>> first;
  for (const OutlierStep& o : outliers.steps) {
    if (o.blamed.empty()) continue;
    auto& f = first[o.blamed.front().name.value];
    ++f.first;
    f.second += o.blamed.front().excess_ns;
  }
  const std::pair<const uint32_t, std::pair<size_t, DurNs>>* top = nullptr;
  for (const auto& entry : first) {
    if (top == nullptr || entry.second > top->second || (entry.second == top->second && entry.first < top->first)) {
      top = &entry;
    }
  }
  if (top == nullptr) {
    return s +
           " than the median step and no host event explains it; compare an outlier step with a typical one in the "
           "timeline.";
  }
  const std::string_view full = trace.str(StringId(top->first));
  const std::string name = ShortEventName(full);
  std::string kind, advice = "move it off the training thread or run it less often";
  if (ContainsIgnoringCase(full, "save") || ContainsIgnoringCase(full, "checkpoint") || ContainsIgnoringCase(full, "serializ")) {
    kind = " (checkpointing)";
    advice = "move it off the training thread or save less often";
  } else if (ContainsIgnoringCase(full, "summary") || ContainsIgnoringCase(full, "flush") || ContainsIgnoringCase(full, "log")) {
    kind = " (logging)";
  } else if (ContainsIgnoringCase(full, "eval") || ContainsIgnoringCase(full, "valid")) {
    kind = " (evaluation)";
  }
  const std::string where =
      top->second.first == n ? "runs in them" : "runs in " + std::to_string(top->second.first) + " of them";
  return s + ": `" + name + "`" + kind + " " + where + "; " + advice + ".";
}

}  // namespace stepline::analysis
