// GapOverlay: the idle gaps of one GPU device as shading items for the
// timeline, bounded by pixels like the slice draw list: gaps closer than
// min_px fold into one item that keeps the cause of its longest gap.
// BuildGapOverlay is pure (tested); DrawGapShading/GapTooltip touch ImGui.
// Cost per device and frame: O(width / min_px * log gaps), however many gaps
// are in view (the folding jumps by search, GapIndex names each run's longest).
#pragma once

#include <cstdint>
#include <vector>

#include "model/analysis/time_category.h"
#include "model/trace.h"
#include "ui/analysis_data.h"
#include "ui/timeline/gap_index.h"
#include "ui/timeline/viewport.h"

struct ImDrawList;

namespace stepline::ui {

struct GapOverlayItem {
  float x0_px = 0, x1_px = 0;  // from the viewport's left edge, clamped to [-1, width + 1]
  uint32_t gap = 0;            // index into AnalysisData::gaps: the longest gap of the item
  analysis::IdleCause cause = analysis::IdleCause::kOther;  // that gap's cause
  uint32_t count = 1;          // gaps folded into the item
};

// Items for `device`'s gaps (those `index` holds) in the visible window, in x
// order. Same items as walking every gap in view and folding each gap that
// starts less than min_px after the current item's end into that item.
void BuildGapOverlay(const GapIndex& index, uint32_t device, const Viewport& viewport, float min_px,
                     std::vector<GapOverlayItem>* out);
// The item under x (viewport px), or -1.
int GapItemAtX(const std::vector<GapOverlayItem>& items, float x_px);

// Shades [y0, y1) under each item, offset by content_x0; outlines `selected_gap`.
void DrawGapShading(ImDrawList* dl, const std::vector<GapOverlayItem>& items, float content_x0, float y0, float y1,
                    int32_t selected_gap);
// Tooltip body for one gap: cause, duration, step, blamed events, next kernel.
void GapTooltip(const Trace& trace, const AnalysisData& analysis, uint32_t gap, uint32_t folded);

}  // namespace stepline::ui
