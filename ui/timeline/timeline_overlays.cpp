// TimelinePanel overlays: flow arrows, the range selection, hover tooltips,
// and the analysis on the timeline (Steps strip, idle-gap shading, blame arrow).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/analysis_format.h"
#include "ui/analysis_steps_strip.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/tooltip.h"

namespace stepline::ui {

void TimelinePanel::DrawFlows(ViewState& state, ImDrawList* dl, const Rect& content) {
  const TimelineData& data = *state.data;
  // Null until the flows are indexed (a worker does it after the first
  // frame): meanwhile only the selection's outgoing arrows, which the table's
  // own order finds, are drawn; the rest appear on the frame after.
  const FlowIndex* index = data.flows();
  const FlowTable& flows = data.trace->flows();
  flow_arrows_ = 0;
  auto draw_arrow = [&](uint32_t f) {
    Rect a, b;
    if (!SliceScreenRect(state, flows.from()[f], content, &a) || !SliceScreenRect(state, flows.to()[f], content, &b))
      return;
    DrawArrow(dl, a, b, theme::kFlowArrow);
    ++flow_arrows_;
  };
  if (!state.selected.is_none()) {
    const uint32_t sel = state.selected.value;
    auto from = flows.from();
    for (auto it = std::lower_bound(from.begin(), from.end(), state.selected); it != from.end() && it->value == sel;
         ++it)
      draw_arrow(static_cast<uint32_t>(it - from.begin()));
    auto to = flows.to();
    if (index != nullptr) {
      const std::vector<uint32_t>& by_to = index->by_to;
      auto lo =
          std::lower_bound(by_to.begin(), by_to.end(), sel, [&](uint32_t f, uint32_t v) { return to[f].value < v; });
      for (; lo != by_to.end() && to[*lo].value == sel; ++lo) draw_arrow(*lo);
    }
  }
  if (state.show_all_flows && index != nullptr) {
    index->window.InView(state.viewport.visible, theme::kMaxFlowArrows, &flows_in_view_);
    for (uint32_t f : flows_in_view_) draw_arrow(f);
  }
}

void TimelinePanel::DrawArrow(ImDrawList* dl, const Rect& a, const Rect& b, uint32_t color) const {
  const ImVec2 p0(a.x0, (a.y0 + a.y1) / 2), p1(b.x0, (b.y0 + b.y1) / 2);
  const float dx = std::max(20.f, std::fabs(p1.x - p0.x) / 3);
  dl->AddBezierCubic(p0, ImVec2(p0.x + dx, p0.y), ImVec2(p1.x - dx, p1.y), p1, color, 1.5f);
  const float head = theme::kArrowHead * Scale();
  dl->AddTriangleFilled(p1, ImVec2(p1.x - head, p1.y - head / 2), ImVec2(p1.x - head, p1.y + head / 2), color);
}

void TimelinePanel::DrawRangeSelection(ViewState& state, ImDrawList* dl, const Rect& area) {
  if (!state.range) return;
  const float x0 = area.x0 + static_cast<float>(state.viewport.TimeToX(state.range->start_ns));
  const float x1 = area.x0 + static_cast<float>(state.viewport.TimeToX(state.range->end_ns));
  dl->PushClipRect(ImVec2(area.x0, area.y0), ImVec2(area.x1, area.y1), true);
  dl->AddRectFilled(ImVec2(x0, area.y0), ImVec2(x1, area.y1), theme::kRangeSelection);
  dl->AddLine(ImVec2(x0, area.y0), ImVec2(x0, area.y1), theme::kRangeSelectionEdge);
  dl->AddLine(ImVec2(x1, area.y0), ImVec2(x1, area.y1), theme::kRangeSelectionEdge);
  const std::string label = FormatDuration(state.range->duration_ns());
  dl->AddText(ImVec2(x0 + 4, area.y0 + 2), theme::kRulerText, label.c_str());
  dl->PopClipRect();
}

void TimelinePanel::DrawHoverTooltip(const ViewState& state) {
  if (!ImGui::IsItemHovered() || ImGui::IsMouseDragging(0)) return;
  const Trace& trace = *state.trace();
  if (!state.hovered.is_none()) {
    const size_t i = state.hovered.index();
    BeginWrappedTooltip();
    ImGui::TextUnformatted(std::string(trace.str(trace.slices().name()[i])).c_str());
    ImGui::Text("%s", FormatDuration(trace.slices().dur_ns()[i]).c_str());
    const std::string_view cat = trace.str(trace.slices().category()[i]);
    if (!cat.empty()) ImGui::TextDisabled("%.*s", static_cast<int>(cat.size()), cat.data());
    if (trace.slices().gpu_kind()[i] != GpuKind::kNone) {
      const std::string_view kind = GpuKindName(trace.slices().gpu_kind()[i]);
      ImGui::TextDisabled("%.*s", static_cast<int>(kind.size()), kind.data());
    }
    EndWrappedTooltip();
  } else if (hovered_run_count_ > 1) {
    WrappedTooltip("%u slices folded here; zoom in to see them", hovered_run_count_);
  } else if (hovered_gap_ >= 0) {
    BeginWrappedTooltip();
    GapTooltip(trace, state.data->analysis, static_cast<uint32_t>(hovered_gap_), hovered_gap_count_,
               hovered_gap_fraction_);
    EndWrappedTooltip();
  } else if (hovered_step_ >= 0) {
    BeginWrappedTooltip();
    StepTooltip(state, hovered_step_);
    EndWrappedTooltip();
  }
}

void TimelinePanel::DrawStepsRow(ViewState& state, ImDrawList* dl, const Rect& strip) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool in_strip =
      ImGui::IsItemHovered() && io.MousePos.y >= strip.y0 && io.MousePos.y < strip.y1 && io.MousePos.x >= strip.x0;
  hovered_step_ = DrawStepsStrip(state, dl, strip.x0, strip.y0, strip.x1, strip.y1, theme::kHeaderWidth * Scale(),
                                 in_strip, io.MousePos.x);
  // A click (not a drag) on a step frames it.
  const ImVec2 press = io.MouseClickedPos[0];
  if (hovered_step_ >= 0 && ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 9.f && press.y >= strip.y0 &&
      press.y < strip.y1) {
    const analysis::ReportStep& st = state.data->analysis.report.steps[hovered_step_];
    state.links.focused_step = hovered_step_;
    state.FitRange(TimeRange{st.start_ns, st.start_ns + st.dur_ns}, 0.02);
  }
}

void TimelinePanel::BuildGapItems(const ViewState& state) {
  const AnalysisData& a = state.data->analysis;
  gap_items_.resize(a.devices.size());
  const GapIndex& gaps = gap_filter_.Get(state.data, state.links.gap_cause_mask, state.links.gap_min_dur_ns);
  for (uint32_t d = 0; d < gap_items_.size(); ++d) {
    gap_items_[d].clear();
    if (state.links.show_gap_overlay) BuildGapOverlay(gaps, d, state.viewport, 1.f, &gap_items_[d]);
  }
}

void TimelinePanel::DrawRowGaps(const ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                                const Rect& content) {
  // No gaps while the analysis runs (device_of_track is empty then too).
  if (!state.links.show_gap_overlay || !state.data->analysis_ready) return;
  const AnalysisData& a = state.data->analysis;
  int device = -1;
  if (row.kind == RowKind::kSliceTrack &&
      RowShowsIdleGaps(row.kind, state.trace()->tracks().kind(row.track), state.data->copies.CopiesOnly(row.track))) {
    device = a.device_of_track[row.track.index()];
  }
  if (device < 0) return;
  const std::vector<GapOverlayItem>& items = gap_items_[device];
  DrawGapShading(dl, items, content.x0, y0, y0 + row.height, state.links.selected_gap);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered() && mouse.y >= y0 && mouse.y < y0 + row.height && mouse.x >= content.x0) {
    const int hit = GapItemAtX(items, mouse.x - content.x0);
    if (hit >= 0) {
      hovered_gap_ = static_cast<int>(items[hit].gap);
      hovered_gap_count_ = items[hit].count;
      hovered_gap_fraction_ = items[hit].idle_fraction;
    }
  }
}

// From the selected gap's ArrowSource to the kernel that ended it.
void TimelinePanel::DrawBlameArrow(const ViewState& state, ImDrawList* dl, const Rect& content) {
  const AnalysisData& a = state.data->analysis;
  if (state.links.selected_gap < 0 || static_cast<size_t>(state.links.selected_gap) >= a.gaps.size()) return;
  const analysis::IdleGap& g = a.gaps[state.links.selected_gap];
  const SliceId from = ArrowSource(g);
  Rect r_from, r_to;
  if (from.is_none() || g.next_kernel.is_none() || !SliceScreenRect(state, from, content, &r_from) ||
      !SliceScreenRect(state, g.next_kernel, content, &r_to)) {
    return;
  }
  DrawArrow(dl, r_from, r_to, theme::kBlameArrow);
  dl->AddRect(ImVec2(r_to.x0 - 1, r_to.y0 - 1), ImVec2(std::max(r_to.x1, r_to.x0 + 2) + 1, r_to.y1 + 1),
              theme::kBlameArrow, 0.f, 0, 2.f);
}

}  // namespace stepline::ui
