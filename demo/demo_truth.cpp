// Ground truth of a demo trace; see demo_truth.h.
//
// A gap is an interval between two consecutive kernels (the demo has one
// compute stream). Its cause, as docs/analysis.md defines it:
//   1. an H2D (D2H) copy covers more than half of it -> memcpy_h2d (memcpy_d2h);
//   2. else, if the next kernel's launch call began after the gap began, the
//      host was late: over the window [gap start, kernel start) on the main
//      thread (which launches every kernel), each instant goes to the
//      innermost host event there, with that event's cause (its own tag,
//      else its nearest tagged ancestor's, else host_compute; step markers
//      count for nothing); the cause with the most time wins, ties to the
//      lower enum value. No event in the window: sync if a sync call ended
//      within kSyncProximityNs before the gap, else other;
//   3. else other.
#include "demo/demo_truth.h"

#include <algorithm>

namespace stepline::demo {
namespace {

struct Gap {
  TimeNs start_ns, end_ns;
  DemoIdleCause cause;
};

DurNs Overlap(TimeNs a0, TimeNs a1, TimeNs b0, TimeNs b1) {
  return std::max<DurNs>(0, std::min(a1, b1) - std::max(a0, b0));
}

// Copies of one kind, sorted by start, for overlap queries.
class CopyIndex {
 public:
  CopyIndex(const std::vector<CopyRecord>& copies, GpuKind kind) {
    for (const CopyRecord& c : copies) {
      if (c.kind != kind) continue;
      spans_.push_back({c.start_ns, c.end_ns});
      max_dur_ = std::max(max_dur_, c.end_ns - c.start_ns);
    }
    std::sort(spans_.begin(), spans_.end());
  }
  DurNs OverlapNs(TimeNs a, TimeNs b) const {
    auto it = std::lower_bound(spans_.begin(), spans_.end(), std::pair<TimeNs, TimeNs>{a - max_dur_, a - max_dur_});
    DurNs sum = 0;
    for (; it != spans_.end() && it->first < b; ++it) sum += Overlap(it->first, it->second, a, b);
    return sum;
  }

 private:
  std::vector<std::pair<TimeNs, TimeNs>> spans_;
  DurNs max_dur_ = 0;
};

struct Piece {
  TimeNs start_ns, end_ns;
  uint16_t depth;
  int8_t cause;
};

// Host time in [a, b) per cause, the innermost event deciding each instant.
std::array<DurNs, kDemoIdleCauseCount> WindowWeights(const DemoRecords& r, TimeNs a, TimeNs b) {
  std::vector<Piece> pieces;
  for (const std::vector<HostRecord>& level : r.host_by_depth) {
    // Events of one depth do not overlap, so their ends are sorted too.
    auto it =
        std::upper_bound(level.begin(), level.end(), a, [](TimeNs t, const HostRecord& h) { return t < h.end_ns; });
    for (; it != level.end() && it->start_ns < b; ++it) {
      pieces.push_back({std::max(a, it->start_ns), std::min(b, it->end_ns), it->depth, it->cause});
    }
  }
  std::array<DurNs, kDemoIdleCauseCount> w{};
  std::vector<TimeNs> cuts;
  for (const Piece& p : pieces) {
    cuts.push_back(p.start_ns);
    cuts.push_back(p.end_ns);
  }
  std::sort(cuts.begin(), cuts.end());
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const TimeNs s = cuts[i], e = cuts[i + 1];
    if (s == e) continue;
    const Piece* inner = nullptr;
    for (const Piece& p : pieces) {
      if (p.start_ns <= s && p.end_ns >= e && (!inner || p.depth > inner->depth)) inner = &p;
    }
    if (inner && inner->cause >= 0) w[static_cast<size_t>(inner->cause)] += e - s;
  }
  return w;
}

bool SyncEndedJustBefore(const DemoRecords& r, TimeNs t) {
  for (const std::vector<HostRecord>& level : r.host_by_depth) {
    auto it =
        std::upper_bound(level.begin(), level.end(), t, [](TimeNs x, const HostRecord& h) { return x < h.end_ns; });
    if (it == level.begin()) continue;
    const HostRecord& h = *std::prev(it);
    if (h.cause == static_cast<int8_t>(DemoIdleCause::kSync) && t - h.end_ns <= kSyncProximityNs) return true;
  }
  return false;
}

DemoIdleCause GapCause(const DemoRecords& r, const CopyIndex& h2d, const CopyIndex& d2h, TimeNs gap_start,
                       const KernelRecord& next) {
  const DurNs len = next.start_ns - gap_start;
  if (2 * h2d.OverlapNs(gap_start, next.start_ns) > len) return DemoIdleCause::kMemcpyH2D;
  if (2 * d2h.OverlapNs(gap_start, next.start_ns) > len) return DemoIdleCause::kMemcpyD2H;
  if (next.launch_start_ns <= gap_start) return DemoIdleCause::kOther;
  const auto w = WindowWeights(r, gap_start, next.start_ns);
  size_t best = 0;
  for (size_t i = 1; i < w.size(); ++i) {
    if (w[i] > w[best]) best = i;
  }
  if (w[best] > 0) return static_cast<DemoIdleCause>(best);
  return SyncEndedJustBefore(r, gap_start) ? DemoIdleCause::kSync : DemoIdleCause::kOther;
}

DurNs* Tally(DemoStepTruth& s, HostTag tag) {
  switch (tag) {
    case HostTag::kInput: return &s.input_wait_ns;
    case HostTag::kLaunch: return &s.launch_call_ns;
    case HostTag::kSync: return &s.sync_call_ns;
    case HostTag::kCallback: return &s.callback_ns;
    case HostTag::kCheckpoint: return &s.checkpoint_ns;
    default: return nullptr;
  }
}

}  // namespace

DemoTruth ComputeDemoTruth(const DemoRecords& r, std::span<const DemoStepSpan> steps) {
  DemoTruth t;
  if (steps.empty()) return t;
  const CopyIndex h2d(r.copies, GpuKind::kMemcpyH2D), d2h(r.copies, GpuKind::kMemcpyD2H);
  std::vector<Gap> gaps;
  for (size_t i = 1; i < r.kernels.size(); ++i) {
    const TimeNs prev_end = r.kernels[i - 1].end_ns;
    if (r.kernels[i].start_ns > prev_end) {
      gaps.push_back({prev_end, r.kernels[i].start_ns, GapCause(r, h2d, d2h, prev_end, r.kernels[i])});
    }
  }

  for (const DemoStepSpan& span : steps) {
    DemoStepTruth s;
    s.step_num = span.step_num;
    s.start_ns = span.start_ns;
    s.dur_ns = span.end_ns - span.start_ns;
    auto k = std::lower_bound(r.kernels.begin(), r.kernels.end(), span.start_ns,
                              [](const KernelRecord& kr, TimeNs x) { return kr.end_ns <= x; });
    for (; k != r.kernels.end() && k->start_ns < span.end_ns; ++k) {
      s.kernel_ns += Overlap(k->start_ns, k->end_ns, span.start_ns, span.end_ns);
    }
    DurNs gap_total = 0;
    auto g = std::lower_bound(gaps.begin(), gaps.end(), span.start_ns,
                              [](const Gap& gap, TimeNs x) { return gap.end_ns <= x; });
    for (; g != gaps.end() && g->start_ns < span.end_ns; ++g) {
      const TimeNs a = std::max(g->start_ns, span.start_ns), b = std::min(g->end_ns, span.end_ns);
      s.gap_ns_by_cause[static_cast<size_t>(g->cause)] += b - a;
      gap_total += b - a;
      const DurNs in_h2d = h2d.OverlapNs(a, b);
      s.memcpy_h2d_ns += in_h2d;
      s.memcpy_d2h_ns += std::max<DurNs>(0, d2h.OverlapNs(a, b));
    }
    // Step time outside every gap and kernel (none by construction) is "other".
    s.gap_ns_by_cause[static_cast<size_t>(DemoIdleCause::kOther)] += s.dur_ns - s.kernel_ns - gap_total;
    s.idle_ns = s.dur_ns - s.kernel_ns - s.memcpy_h2d_ns - s.memcpy_d2h_ns;
    for (size_t c = 0; c < t.gap_ns_by_cause.size(); ++c) t.gap_ns_by_cause[c] += s.gap_ns_by_cause[c];
    t.steps.push_back(s);
  }

  // Main-thread tallies: every tallied event lies inside one step.
  for (const std::vector<HostRecord>& level : r.host_by_depth) {
    for (const HostRecord& h : level) {
      if (!Tally(t.steps[0], h.tag)) continue;
      auto it = std::upper_bound(steps.begin(), steps.end(), h.start_ns,
                                 [](TimeNs x, const DemoStepSpan& sp) { return x < sp.start_ns; });
      if (it == steps.begin()) continue;
      const size_t i = static_cast<size_t>(it - steps.begin()) - 1;
      if (DurNs* sum = Tally(t.steps[i], h.tag))
        *sum += Overlap(h.start_ns, h.end_ns, steps[i].start_ns, steps[i].end_ns);
    }
  }

  const TimeNs a = steps.front().start_ns, b = steps.back().end_ns;
  DurNs busy = 0;
  for (const WorkerRecord& w : r.worker_busy) busy += Overlap(w.start_ns, w.end_ns, a, b);
  t.map_worker_busy_fraction = static_cast<double>(busy) / (static_cast<double>(b - a) * kDemoMapWorkers);
  return t;
}

}  // namespace stepline::demo
