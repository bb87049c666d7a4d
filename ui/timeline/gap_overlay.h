// GapOverlay: the idle gaps of one GPU device as shading items for the
// timeline, bounded by pixels like the slice draw list, and honest at every
// zoom: an item carries the share of its time that is idle, so a stretch of
// many sub-pixel gaps between busy kernels shades as partly idle, not solid.
// BuildGapOverlay is pure (tested); DrawGapShading/GapTooltip touch ImGui.
//
// How gaps become items. Gaps closer than min_px (>= 1) fold into a run, as
// before. A run of one gap at least a pixel wide is one item at its exact
// extent, fully idle (zoomed in, a gap looks like a gap). Any other run is cut
// into pixel columns; each column's idle ns come from GapIndex's prefix sums
// (two searches, the gaps cut by the column's edges clipped), and its colour
// from the gap with the most idle ns inside it (the longest wholly inside, or
// either clipped end). Columns wholly inside one gap merge back into one item.
// Cost per device and frame: O(width * log gaps), however many gaps are in view.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "model/analysis/time_category.h"
#include "model/trace.h"
#include "ui/analysis_data.h"
#include "ui/timeline/gap_index.h"
#include "ui/timeline/timeline_data.h"
#include "ui/timeline/viewport.h"

struct ImDrawList;

namespace stepline::ui {

struct GapOverlayItem {
  float x0_px = 0, x1_px = 0;  // from the viewport's left edge, clamped to [-1, width + 1]
  uint32_t gap = 0;            // index into AnalysisData::gaps: the gap with the most idle ns in the item
  uint32_t count = 1;          // gaps in (or cut by) the item
  float idle_fraction = 1.f;   // idle share of the item's time, (0, 1]; 1 inside one gap
  analysis::IdleCause cause = analysis::IdleCause::kOther;  // the cause of `gap`
};

// Items for `device`'s gaps (those `index` holds) in the visible window, in x
// order, not overlapping. min_px >= 1 (so a pixel column meets one run only).
void BuildGapOverlay(const GapIndex& index, uint32_t device, const Viewport& viewport, float min_px,
                     std::vector<GapOverlayItem>* out);
// The item under x (viewport px), or -1.
int GapItemAtX(const std::vector<GapOverlayItem>& items, float x_px);

// The gaps the overlay shades: the trace's GapIndex narrowed to the Idle gaps
// panel's filters (ViewState::gap_cause_mask, gap_min_dur_ns), so the timeline
// shows what the list lists. Rebuilt (O(gaps)) only when the trace or a filter
// changes, never per frame.
class GapOverlayFilter {
 public:
  const GapIndex& Get(const std::shared_ptr<const TimelineData>& data, uint32_t cause_mask, DurNs min_dur_ns);

 private:
  std::weak_ptr<const TimelineData> built_for_;  // weak: a new trace at the same address is not mistaken for it
  uint32_t cause_mask_ = 0;
  DurNs min_dur_ns_ = -1;
  GapIndex filtered_;
};

// Shades each item in [y0, y1): a band rising from y1 to idle_fraction of the
// row (at least theme::kGapShadeMinHeight), offset by content_x0; outlines the
// items of `selected_gap` as one box.
void DrawGapShading(ImDrawList* dl, const std::vector<GapOverlayItem>& items, float content_x0, float y0, float y1,
                    int32_t selected_gap);
// Tooltip body for one gap: cause, duration, step, blamed events, next kernel;
// with folded > 1, how idle the hovered item is.
void GapTooltip(const Trace& trace, const AnalysisData& analysis, uint32_t gap, uint32_t folded,
                float idle_fraction = 1.f);

}  // namespace stepline::ui
