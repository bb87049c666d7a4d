// ZoomHistory; see zoom_history.h.
#include "ui/timeline/zoom_history.h"

namespace stepline::ui {

void ZoomHistory::BeforeChange(const TimeRange& from, ViewChange change, double now_s) {
  if (from.empty()) return;  // no view yet (before the first fit)
  const bool step = change == ViewChange::kZoomStep || change == ViewChange::kKeyPan;
  const bool coalesced = step && change == last_change_ && now_s - last_step_s_ <= kCoalesceSeconds;
  last_change_ = change;
  if (step) last_step_s_ = now_s;
  if (coalesced) return;
  forward_.clear();
  if (!back_.empty() && back_.back() == from) return;
  back_.push_back(from);
  if (back_.size() > kMaxEntries) back_.erase(back_.begin());
}

bool ZoomHistory::Back(const TimeRange& current, TimeRange* to) {
  if (back_.empty()) return false;
  forward_.push_back(current);
  *to = back_.back();
  back_.pop_back();
  last_change_ = ViewChange::kJump;  // the next step starts a new entry
  return true;
}

bool ZoomHistory::Forward(const TimeRange& current, TimeRange* to) {
  if (forward_.empty()) return false;
  back_.push_back(current);
  *to = forward_.back();
  forward_.pop_back();
  last_change_ = ViewChange::kJump;
  return true;
}

void ZoomHistory::Clear() {
  back_.clear();
  forward_.clear();
  last_change_ = ViewChange::kJump;
}

}  // namespace stepline::ui
