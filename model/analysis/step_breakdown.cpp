// The per-step breakdown sweep (see step_breakdown.h).
//
// One pass over the device's activity boundaries in time order keeps a count
// of running ops per activity category. Between two consecutive boundaries the
// category is the highest-priority one with a non-zero count; with none, the
// instant is idle and takes the idle category of the gap containing it (an
// activity-free segment never straddles a gap boundary, because gap
// boundaries are kernel boundaries). Segments come out in time order and
// contiguous from the first step's start to the last step's end, so adding
// each to the step windows it overlaps (two pointers; windows are disjoint)
// makes every step's categories sum to its window (Step::window_dur_ns: its
// duration unless the next step overlaps it). All arithmetic is int64 ns.
#include "model/analysis/step_breakdown.h"

#include <algorithm>
#include <array>

namespace stepline::analysis {
namespace {

constexpr int kActivityCategories = 6;  // TimeCategory::kCompute .. kMemset

struct Boundary {
  TimeNs t;
  uint8_t category;
};

class SegmentSink {
 public:
  SegmentSink(const StepSet& steps, const std::vector<IdleGap>& gaps, std::vector<StepBreakdown>* out)
      : steps_(steps.steps), gaps_(gaps), out_(out) {}

  void Emit(TimeNs a, TimeNs b, const std::array<int32_t, kActivityCategories>& running) {
    if (b <= a) return;
    while (step_ < steps_.size() && steps_[step_].window_end_ns() <= a) ++step_;
    if (step_ == steps_.size() || steps_[step_].start_ns >= b) return;
    TimeCategory category = TimeCategory::kIdleOther;
    int c = 0;
    while (c < kActivityCategories && running[c] == 0) ++c;
    if (c < kActivityCategories) {
      category = static_cast<TimeCategory>(c);
    } else {
      while (gap_ < gaps_.size() && gaps_[gap_].end_ns <= a) ++gap_;
      if (gap_ < gaps_.size() && gaps_[gap_].start_ns <= a) category = IdleCategory(gaps_[gap_].cause);
    }
    for (size_t k = step_; k < steps_.size() && steps_[k].start_ns < b; ++k) {
      const TimeRange step{steps_[k].start_ns, steps_[k].window_end_ns()};
      At((*out_)[k].category_ns, category) += step.OverlapNs({a, b});
    }
  }

 private:
  const std::vector<Step>& steps_;
  const std::vector<IdleGap>& gaps_;
  std::vector<StepBreakdown>* out_;
  size_t step_ = 0, gap_ = 0;
};

void SweepCategories(const DeviceActivity& device, const StepSet& steps, const std::vector<IdleGap>& gaps,
                     std::vector<StepBreakdown>* out) {
  std::vector<Boundary> starts, ends;
  starts.reserve(device.ops.size());
  ends.reserve(device.ops.size());
  for (const DeviceOp& op : device.ops) {
    if (op.end_ns <= op.start_ns) continue;
    const uint8_t c = static_cast<uint8_t>(ActivityCategory(op.kind));
    starts.push_back({op.start_ns, c});  // already in start order
    ends.push_back({op.end_ns, c});
  }
  std::sort(ends.begin(), ends.end(), [](const Boundary& a, const Boundary& b) { return a.t < b.t; });
  const TimeNs steps_end = steps.steps.back().window_end_ns();
  TimeNs cursor = steps.steps.front().start_ns;
  if (!starts.empty()) cursor = std::min(cursor, starts.front().t);
  std::array<int32_t, kActivityCategories> running{};
  SegmentSink sink(steps, gaps, out);
  size_t i = 0, j = 0;
  while (i < starts.size() || j < ends.size()) {
    const TimeNs t = std::min(i < starts.size() ? starts[i].t : INT64_MAX, j < ends.size() ? ends[j].t : INT64_MAX);
    if (t >= steps_end) break;  // nothing after the last step matters
    sink.Emit(cursor, t, running);
    cursor = std::max(cursor, t);
    while (j < ends.size() && ends[j].t == t) --running[ends[j++].category];
    while (i < starts.size() && starts[i].t == t) ++running[starts[i++].category];
  }
  sink.Emit(cursor, steps_end, running);
}

void AddIdleByCause(const StepSet& steps, const std::vector<IdleGap>& gaps, std::vector<StepBreakdown>* out) {
  const auto& s = steps.steps;
  size_t k = 0;
  for (const IdleGap& g : gaps) {
    while (k < s.size() && s[k].window_end_ns() <= g.start_ns) ++k;
    for (size_t j = k; j < s.size() && s[j].start_ns < g.end_ns; ++j) {
      const TimeRange window{s[j].start_ns, s[j].window_end_ns()};
      At((*out)[j].idle_by_cause, g.cause) += TimeRange{g.start_ns, g.end_ns}.OverlapNs(window);
    }
  }
}

}  // namespace

std::vector<StepBreakdown> ComputeStepBreakdowns(const DeviceActivity& device, const StepSet& steps,
                                                 const std::vector<IdleGap>& gaps) {
  std::vector<StepBreakdown> out(steps.steps.size());
  if (steps.steps.empty()) return out;
  SweepCategories(device, steps, gaps, &out);
  AddIdleByCause(steps, gaps, &out);
  return out;
}

}  // namespace stepline::analysis
