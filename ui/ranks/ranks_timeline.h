// RanksTimeline: the ranks view's timeline: one lane group per
// rank (compute kernels, one lane per stream when a rank computes on several,
// collective kernels with each rank's wait in a
// matched instance filled orange and hatched, the main thread) drawn from the
// ranks' busy summaries (analysis::RankLanes) on the aligned clock, its ruler
// counting from a chosen step; wheel zoom and drag pan like the main
// timeline; a click on a collective outlines that instance on every rank.
// Zoomed in past a rank's summary, ranks whose detail is loaded are drawn
// slice by slice (ranks_detail.h); the others stay summaries, labelled so.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "model/analysis/rank_instances.h"
#include "ui/ranks/ranks_view_input.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

// Vertical layout of the lane groups (unscaled px times the font scale).
// A group's lanes, top to bottom: `compute_lanes` compute lanes (one per
// kept stream, RankLanes::compute_streams; one when no rank has several),
// the collective lane, the main thread.
struct RanksTimelineLayout {
  float ruler_h = 20.f;
  float lane_h = 10.f;
  float group_gap = 5.f;
  int compute_lanes = 1;
  int lanes() const { return compute_lanes + 2; }
  float group_h() const { return static_cast<float>(lanes()) * lane_h + group_gap; }
  // The rank row (0-based, in group order) and lane at `y` px below the
  // ruler's bottom; nullopt in a gap or past `groups`. `compute_lane` gets
  // the compute lane's index (0 for the other lanes).
  std::optional<std::pair<size_t, analysis::RankLane>> LaneAt(float y, size_t groups, int* compute_lane = nullptr) const;
};

// Compute lanes per group for these ranks: the most kept streams of any rank
// (RankLanes::compute_streams), at least 1.
int RanksComputeLanes(std::span<const analysis::RankSummary> ranks);

// The window shown when step `step` is chosen: the step's aligned window
// across the ranks with 3% either side; the ranks' aligned spans (trace
// spans minus offsets) when no rank has that step.
TimeRange RanksStepView(std::span<const analysis::RankSummary> ranks, const analysis::RanksAnalysis& analysis,
                        size_t step, TimeNs* origin);

class RanksTimeline {
 public:
  // Draws into a `width` x `height` region at the cursor.
  void Draw(const RanksViewInput& input, float width, float height);
  // Aligns on `step` and, when given, shows `since_step_start` (the ruler's
  // times) instead of the whole step, from the next frame on.
  void ShowStep(int step, std::optional<TimeRange> since_step_start = std::nullopt);
  const std::optional<uint32_t>& selected() const { return selected_; }
  const Viewport& viewport() const { return viewport_; }
  const analysis::AlignedInstances& instances() const { return instances_; }
  // Where the last frame put the lanes' time 0 px and the first group's top
  // (screen px), for tests that click.
  float lanes_left() const { return lanes_left_; }
  float lanes_top() const { return lanes_top_; }

 private:
  void Refresh(const RanksViewInput& input, float width);
  void DrawGroups(const RanksViewInput& input, float x0, float y0, float width, float height);
  // The tooltip over lane `li` of table row `row` at aligned time `t`.
  void Tooltip(const RanksViewInput& input, size_t row, int li, int compute_lane, TimeNs t);
  void ContextMenu(const RanksViewInput& input);

  const analysis::RanksAnalysis* for_ = nullptr;  // what instances_ were aligned for
  analysis::AlignedInstances instances_;
  Viewport viewport_;
  TimeNs origin_ns_ = 0;  // the ruler's 0: the chosen step's start on the lowest rank
  int step_ = 0;
  int fitted_step_ = -1;
  std::optional<TimeRange> pending_range_;  // ShowStep's range, applied once the step is fitted
  size_t menu_input_ = 0;                   // the rank the context menu is for
  std::optional<uint32_t> selected_;
  float scroll_y_ = 0;
  float lanes_left_ = 0, lanes_top_ = 0;
};

}  // namespace stepline::ui
