// Timeline sync math; see timeline_sync.h.
#include "ui/compare/timeline_sync.h"

#include <algorithm>

namespace stepline::ui {

TimeNs StepOrigin(std::span<const TimeNs> step_start_ns, int step, TimeNs fallback) {
  if (step < 0 || static_cast<size_t>(step) >= step_start_ns.size()) return fallback;
  return step_start_ns[step];
}

Viewport MapViewport(const Viewport& from, TimeNs from_origin, TimeNs to_origin) {
  Viewport out = from;
  const TimeNs shift = to_origin - from_origin;
  out.visible = TimeRange{from.visible.start_ns + shift, from.visible.end_ns + shift};
  return out;
}

TimeRange AlignedStepWindowA(const StepAlignment& align, DurNs step_dur_a, DurNs step_dur_b) {
  // Without steps (both 0) there is nothing to frame; a millisecond keeps the
  // view usable rather than collapsing to Viewport::kMinVisibleNs.
  const DurNs longer = std::max<DurNs>({step_dur_a, step_dur_b, 1'000'000});
  const DurNs pad = longer / 20;
  return TimeRange{align.origin_a - pad, align.origin_a + longer + pad};
}

void ViewportSync::Reset(const StepAlignment& align, const Viewport& a, const Viewport& b) {
  align_ = align;
  agreed_[0] = a.visible;
  agreed_[1] = b.visible;
}

bool ViewportSync::Follow(Side leader_side, const Viewport& leader, Viewport* follower) {
  const int l = static_cast<int>(leader_side), f = 1 - l;
  if (leader.visible == agreed_[l]) return false;
  const TimeNs from = leader_side == Side::kA ? align_.origin_a : align_.origin_b;
  const TimeNs to = leader_side == Side::kA ? align_.origin_b : align_.origin_a;
  follower->visible = MapViewport(leader, from, to).visible;
  agreed_[l] = leader.visible;
  agreed_[f] = follower->visible;
  return true;
}

}  // namespace stepline::ui
