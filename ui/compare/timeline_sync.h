// Timeline sync for the compare view: the two runs share one time axis that
// counts from the start of an aligned step (step k of A against step k of B),
// so a viewport on one run maps onto the other by the difference of the two
// step starts. Plain math, no ImGui, unit-tested without a window.
#pragma once

#include <span>

#include "model/time.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

// The two origins of the shared axis: time t of A is shown above time
// t - origin_a + origin_b of B.
struct StepAlignment {
  TimeNs origin_a = 0, origin_b = 0;

  TimeNs BFromA(TimeNs t) const { return t - origin_a + origin_b; }
  TimeNs AFromB(TimeNs t) const { return t - origin_b + origin_a; }
};

// The start of step `step` of a run, or `fallback` (the trace start) when the
// run has no such step.
TimeNs StepOrigin(std::span<const TimeNs> step_start_ns, int step, TimeNs fallback);

// `from` moved from one origin to the other: same zoom, same width.
Viewport MapViewport(const Viewport& from, TimeNs from_origin, TimeNs to_origin);

// The window shown when an alignment is chosen: from a little before the
// aligned steps to the end of the longer one, on A's clock.
TimeRange AlignedStepWindowA(const StepAlignment& align, DurNs step_dur_a, DurNs step_dur_b);

// Keeps two viewports in step. The compare view calls Follow() before
// drawing each side, with the other side as the leader: if the leader moved
// since the two last agreed, the follower jumps to the mapped window. So
// whichever side the user moved leads, and the other catches up before it is
// drawn (or one frame later when it was drawn first).
class ViewportSync {
 public:
  enum class Side : uint8_t { kA = 0, kB };
  // Starts from `a` and `b` agreeing (after a new alignment or new runs).
  void Reset(const StepAlignment& align, const Viewport& a, const Viewport& b);
  // Moves `follower` (the side that is not `leader_side`) onto `leader` when
  // the leader moved; returns whether it did.
  bool Follow(Side leader_side, const Viewport& leader, Viewport* follower);
  const StepAlignment& alignment() const { return align_; }

 private:
  StepAlignment align_;
  TimeRange agreed_[2];  // each side's visible range when the two last agreed
};

}  // namespace stepline::ui
