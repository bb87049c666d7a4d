// TimelinePanel: the frame. Lays out the areas (overview strip, ruler, Steps
// strip, track headers and content), applies view requests, and calls each
// concern in order; the concerns live in their own files:
//   timeline_input.cpp     wheel zoom, drag pan, keys, clicks, range selection, track menu
//   timeline_overview.cpp  the overview strip (GPU busy over the whole trace) and the ruler
//   timeline_tracks.cpp    headers, slices (quads + labels), counters, highlights
//   timeline_overlays.cpp  flows, range selection, tooltips, Steps strip, gap shading, blame arrow
//
// Call flow per frame: Draw() -> HandleInput() -> ComputeTrackLayout() ->
// DrawOverview() -> DrawRuler() -> DrawTracks() [-> DrawSliceRow() builds a
// pixel-bounded draw list per row and queues quads + labels; the renderer
// draws all quads at once, then labels go on top] -> DrawFlows().
#include "ui/timeline/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>

#include "ui/notes/notes_overlay.h"
#include "ui/theme.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

float TimelinePanel::Scale() { return UiScale(); }

void TimelinePanel::Draw(ViewState& state, QuadRenderer* renderer) {
  const auto t0 = std::chrono::steady_clock::now();
  const Trace* trace = state.trace();
  if (trace == nullptr) {
    ImGui::TextUnformatted("No trace loaded.");
    return;
  }
  const float s = Scale();
  row_height_ = theme::kSliceRowHeight * s;
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.x = std::max(avail.x, 200.f);
  avail.y = std::max(avail.y, 120.f);
  const float header_w = theme::kHeaderWidth * s;
  const Rect overview{pos.x, pos.y, pos.x + avail.x, pos.y + theme::kOverviewHeight * s};
  const Rect ruler{pos.x + header_w, overview.y1, pos.x + avail.x, overview.y1 + theme::kRulerHeight * s};
  // The Steps strip sits between the ruler and the tracks when there are steps.
  const float steps_h = state.data->analysis.report.steps.empty() ? 0.f : theme::kStepsRowHeight * s;
  const Rect steps{pos.x + header_w, ruler.y1, pos.x + avail.x, ruler.y1 + steps_h};
  const Rect headers{pos.x, steps.y1, pos.x + header_w, pos.y + avail.y};
  const Rect content{pos.x + header_w, steps.y1, pos.x + avail.x, pos.y + avail.y};

  state.viewport.width_px = std::max(1.f, content.w());
  if (state.viewport.visible.empty() && !state.requests.fit) state.FitAll();
  if (state.requests.fit) {
    state.history.BeforeChange(state.viewport.visible, ViewChange::kJump, ImGui::GetTime());
    state.viewport.Fit(*state.requests.fit);
    state.requests.fit.reset();
  }

  ImGui::InvisibleButton("##timeline", avail,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  const LayoutMetrics metrics{row_height_, theme::kGroupHeaderHeight * s, theme::kCounterHeight * s,
                              theme::kTrackGap * s};
  std::vector<int32_t> memory_devices;
  for (const MemorySeries& m : state.data->memory) memory_devices.push_back(m.device_id);
  layout_ = ComputeTrackLayout(*trace, state.data->depths, state.data->copies, state.layout, metrics, memory_devices);
  row_of_track_.assign(trace->tracks().size(), SIZE_MAX);
  for (size_t i = 0; i < layout_.rows.size(); ++i) {
    if (layout_.rows[i].kind == RowKind::kSliceTrack || layout_.rows[i].kind == RowKind::kCounterTrack) {
      if (row_of_track_[layout_.rows[i].track.index()] == SIZE_MAX) row_of_track_[layout_.rows[i].track.index()] = i;
    }
  }
  HandleInput(state, content, ruler);
  if (state.requests.scroll_to_selection && !state.selected.is_none()) {
    const size_t r = row_of_track_[trace->slices().track()[state.selected.index()].index()];
    if (r != SIZE_MAX) {
      const float y = layout_.rows[r].y + trace->slices().depth()[state.selected.index()] * row_height_;
      if (y < state.scroll_y || y > state.scroll_y + content.h() - row_height_) state.scroll_y = y - content.h() / 3;
    }
  }
  state.requests.scroll_to_selection = false;
  state.scroll_y = std::clamp(state.scroll_y, 0.f, std::max(0.f, layout_.total_height - content.h() + row_height_));
  content_top_ = content.y0 - state.scroll_y;

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(pos.x, pos.y), ImVec2(pos.x + avail.x, pos.y + avail.y), theme::kBackground);
  DrawOverview(state, dl, overview);
  DrawRuler(state, dl, ruler, content);
  if (steps_h > 0) {
    DrawStepsRow(state, dl, steps);
  } else {
    hovered_step_ = -1;  // none to hover (also while the analysis runs)
  }
  BuildGapItems(state);
  UpdateHighlights(state);
  DrawTracks(state, dl, headers, content, renderer);
  dl->PushClipRect(ImVec2(content.x0, content.y0), ImVec2(content.x1, content.y1), true);
  DrawFlows(state, dl, content);
  DrawBlameArrow(state, dl, content);
  DrawCriticalPath(state, dl, content);
  dl->PopClipRect();
  DrawRangeSelection(state, dl, Rect{content.x0, ruler.y0, content.x1, content.y1});
  DrawNotesOverlay(state, dl, content.x0, ruler.y0, content.x1, content.y1);
  DrawHoverTooltip(state);
  DrawTrackMenu(state);
  last_build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace stepline::ui
