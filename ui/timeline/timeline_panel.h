// TimelinePanel: the overview strip, the time ruler and the tracks, with
// zoom/pan/selection input (one .cpp per concern: timeline_{panel,input,
// overview,tracks,overlays}.cpp). Reads the trace through ViewState; keeps only
// per-frame scratch buffers and drag state.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ui/timeline/draw_list.h"
#include "ui/timeline/gap_overlay.h"
#include "ui/timeline/highlight_index.h"
#include "ui/timeline/quad_renderer.h"
#include "ui/view_state.h"

struct ImDrawList;
struct ImVec2;

namespace stepline::ui {

class TimelinePanel {
 public:
  // Draws into the current ImGui window, filling the remaining content region.
  void Draw(ViewState& state, QuadRenderer* renderer);

  // CPU time of the last Draw(), for `stepline bench` (frame_build_ms).
  double last_build_ms() const { return last_build_ms_; }
  // Slice rectangles the last Draw() emitted (0: no event drawn yet).
  size_t last_quad_count() const { return quads_.size(); }
  // Flow arrows (selection's links, "show all arrows") the last Draw() drew.
  size_t last_flow_arrow_count() const { return flow_arrows_; }
  // The centre of the widest slice the last Draw() drew with its name (a
  // scripted walk clicks it); false when none had room for a name.
  bool NamedSliceCenter(float* x, float* y) const {
    const Label* best = nullptr;
    for (const Label& l : labels_) {
      if (!l.text.empty() && (best == nullptr || l.x1 - l.x0 > best->x1 - best->x0)) best = &l;
    }
    if (best == nullptr) return false;
    *x = (best->x0 + best->x1) / 2;
    *y = (best->y0 + best->y1) / 2;
    return true;
  }

 private:
  // Text and row sizes follow the font: 1 at the default 13 px.
  static float Scale();
  struct Rect {
    float x0, y0, x1, y1;
    float w() const { return x1 - x0; }
    float h() const { return y1 - y0; }
  };
  void HandleInput(ViewState& state, const Rect& content, const Rect& ruler);
  void DrawOverview(ViewState& state, ImDrawList* dl, const Rect& r);
  void DrawRuler(ViewState& state, ImDrawList* dl, const Rect& r, const Rect& content);
  void DrawTracks(ViewState& state, ImDrawList* dl, const Rect& headers, const Rect& content, QuadRenderer* renderer);
  void DrawTrackHeader(ImDrawList* dl, const std::string& name, const LayoutRow& row, float y0,
                       const Rect& headers) const;
  void DrawSliceRow(ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0, const Rect& content);
  void DrawCounterRow(ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0, const Rect& content);
  void DrawFlows(ViewState& state, ImDrawList* dl, const Rect& content);
  void DrawRangeSelection(ViewState& state, ImDrawList* dl, const Rect& area);
  void DrawTrackMenu(ViewState& state);
  void DrawHoverTooltip(const ViewState& state);
  bool SliceScreenRect(const ViewState& state, SliceId slice, const Rect& content, Rect* out) const;
  void DrawArrow(ImDrawList* dl, const Rect& from, const Rect& to, uint32_t color) const;
  // Analysis on the timeline: steps strip, gap shading and hover, blame arrow.
  void DrawStepsRow(ViewState& state, ImDrawList* dl, const Rect& strip);
  void BuildGapItems(const ViewState& state);
  void DrawRowGaps(const ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0, const Rect& content);
  void DrawBlameArrow(const ViewState& state, ImDrawList* dl, const Rect& content);
  void DrawCriticalPath(const ViewState& state, ImDrawList* dl, const Rect& content);  // critical_path_overlay.cpp
  void DrawRowGraphReplays(const ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                           const Rect& content);  // graph_replay_overlay.cpp

  TrackLayout layout_;
  std::vector<SliceDrawItem> items_;       // scratch: one row's items
  std::vector<QuadInstance> quads_;        // scratch: this frame's rectangles
  std::vector<uint32_t> flows_in_view_;    // scratch: flow rows drawn with "show all arrows"
  size_t flow_arrows_ = 0;                 // drawn by the last DrawFlows
  struct Label {
    float x0, y0, x1, y1;
    std::string_view text;  // a slice name; empty for a folded run's count
    uint32_t count = 0;     // > 1: a folded run, labelled with its slice count
  };
  std::vector<Label> labels_;              // scratch: slice names, drawn after the quads
  uint32_t hovered_run_count_ = 0;         // > 1: the mouse is over a folded run
  std::vector<std::vector<GapOverlayItem>> gap_items_;  // scratch: per device, this frame's gap shading
  int hovered_gap_ = -1;                   // index into analysis.gaps under the mouse, -1 none
  uint32_t hovered_gap_count_ = 0;         // gaps folded into that item
  float hovered_gap_fraction_ = 1.f;       // idle share of that item
  GapOverlayFilter gap_filter_;            // the shaded gaps: the Idle gaps panel's filters applied
  int hovered_step_ = -1;                  // step under the mouse in the Steps strip, -1 none
  std::vector<size_t> row_of_track_;       // TrackId -> index into layout_.rows (or SIZE_MAX)
  float row_height_ = 18.f;
  TrackId menu_track_;                     // track whose context menu is open
  float content_top_ = 0;                  // screen y of content-space 0 (after scroll)
  // Drag state.
  bool panning_ = false;
  bool drag_recorded_ = false;  // this drag's history entry is made
  bool selecting_range_ = false;
  TimeNs range_anchor_ns_ = 0;
  double last_build_ms_ = 0;
  // Search matches and op occurrences, indexed so folded runs show them too;
  // rebuilt when ViewState::highlight_generation or the trace changes.
  void UpdateHighlights(const ViewState& state);
  HighlightIndex search_highlights_, op_highlights_;
  uint64_t highlight_generation_ = UINT64_MAX;
  std::weak_ptr<const TimelineData> highlight_data_;  // weak: a new trace at the same address is a new trace
};

}  // namespace stepline::ui
