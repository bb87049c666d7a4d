// TimelinePanel: layout of the panel, input, and drawing of every row.
//
// [SECTION] Frame: areas, requests, layout
// [SECTION] Input: wheel zoom, drag pan, keys, clicks, range selection
// [SECTION] Overview strip and ruler
// [SECTION] Tracks: headers, slices (quads + labels), counters
// [SECTION] Flows, range selection, tooltip, context menu
// [SECTION] Analysis: Steps strip, idle-gap shading, blame arrow
//
// Call flow per frame: Draw() -> HandleInput() -> ComputeTrackLayout() ->
// DrawOverview() -> DrawRuler() -> DrawTracks() [-> DrawSliceRow() builds a
// pixel-bounded draw list per row and queues quads + labels; the renderer
// draws all quads at once, then labels go on top] -> DrawFlows().
#include "ui/timeline/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "ui/analysis_format.h"
#include "ui/analysis_steps_strip.h"
#include "ui/theme.h"
#include "ui/timeline/hit_test.h"
#include "ui/timeline/slice_colors.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {
namespace {

// GLFW key codes (== ASCII for letters and digits); ImGui 1.86 indexes
// io.KeysDown by the backend's codes.
constexpr int kKeyW = 'W', kKeyA = 'A', kKeyS = 'S', kKeyD = 'D', kKeyF = 'F', kKey0 = '0';

float Scale() { return ImGui::GetFontSize() / 13.f; }

// "1 event", "12,345 events".
std::string FormatEventCount(uint64_t n) {
  std::string digits = std::to_string(n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return digits + (n == 1 ? " event" : " events");
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Frame
//-----------------------------------------------------------------------------

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
  if (state.viewport.visible.empty() && !state.request_fit) state.FitAll();
  if (state.request_fit) {
    state.viewport.Fit(*state.request_fit);
    state.request_fit.reset();
  }

  ImGui::InvisibleButton("##timeline", avail,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight |
                             ImGuiButtonFlags_MouseButtonMiddle);
  const LayoutMetrics metrics{row_height_, theme::kGroupHeaderHeight * s, theme::kCounterHeight * s,
                              theme::kTrackGap * s};
  layout_ = ComputeTrackLayout(*trace, state.data->depths, state.data->copies, state.layout, metrics);
  row_of_track_.assign(trace->tracks().size(), SIZE_MAX);
  for (size_t i = 0; i < layout_.rows.size(); ++i) {
    if (layout_.rows[i].kind == RowKind::kSliceTrack || layout_.rows[i].kind == RowKind::kCounterTrack) {
      if (row_of_track_[layout_.rows[i].track.index()] == SIZE_MAX) row_of_track_[layout_.rows[i].track.index()] = i;
    }
  }
  HandleInput(state, content, ruler);
  if (state.request_scroll_to_selection && !state.selected.is_none()) {
    const size_t r = row_of_track_[trace->slices().track()[state.selected.index()].index()];
    if (r != SIZE_MAX) {
      const float y = layout_.rows[r].y + trace->slices().depth()[state.selected.index()] * row_height_;
      if (y < state.scroll_y || y > state.scroll_y + content.h() - row_height_) state.scroll_y = y - content.h() / 3;
    }
  }
  state.request_scroll_to_selection = false;
  state.scroll_y = std::clamp(state.scroll_y, 0.f, std::max(0.f, layout_.total_height - content.h() + row_height_));
  content_top_ = content.y0 - state.scroll_y;

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(ImVec2(pos.x, pos.y), ImVec2(pos.x + avail.x, pos.y + avail.y), theme::kBackground);
  DrawOverview(state, dl, overview);
  DrawRuler(state, dl, ruler, content);
  if (steps_h > 0) DrawStepsRow(state, dl, steps);
  BuildGapItems(state);
  UpdateHighlights(state);
  DrawTracks(state, dl, headers, content, renderer);
  dl->PushClipRect(ImVec2(content.x0, content.y0), ImVec2(content.x1, content.y1), true);
  DrawFlows(state, dl, content);
  DrawBlameArrow(state, dl, content);
  dl->PopClipRect();
  DrawRangeSelection(state, dl, Rect{content.x0, ruler.y0, content.x1, content.y1});
  DrawHoverTooltip(state);
  DrawTrackMenu(state);
  last_build_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

//-----------------------------------------------------------------------------
// [SECTION] Input
//-----------------------------------------------------------------------------

void TimelinePanel::HandleInput(ViewState& state, const Rect& content, const Rect& ruler) {
  ImGuiIO& io = ImGui::GetIO();
  Viewport& vp = state.viewport;
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const ImVec2 mouse = io.MousePos;
  const bool mouse_in_content = mouse.x >= content.x0 && mouse.x < content.x1;
  if (hovered && io.MouseWheel != 0.f) {
    if (io.KeyShift) {
      state.scroll_y -= io.MouseWheel * 3 * row_height_;
    } else {
      const double x = mouse_in_content ? mouse.x - content.x0 : content.w() / 2;
      vp.ZoomAround(x, std::pow(1.25, io.MouseWheel));
    }
  }
  const bool keys_enabled = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !io.WantTextInput;
  if (keys_enabled) {
    const double anchor = mouse_in_content && hovered ? mouse.x - content.x0 : content.w() / 2;
    if (ImGui::IsKeyPressed(kKeyW)) vp.ZoomAround(anchor, 1.25);
    if (ImGui::IsKeyPressed(kKeyS)) vp.ZoomAround(anchor, 1 / 1.25);
    if (ImGui::IsKeyPressed(kKeyA)) vp.Pan(content.w() * 0.1);
    if (ImGui::IsKeyPressed(kKeyD)) vp.Pan(-content.w() * 0.1);
    if (ImGui::IsKeyPressed(kKey0, false)) state.FitAll();
    if (ImGui::IsKeyPressed(kKeyF, false)) {
      if (state.range) {
        state.request_fit = *state.range;
      } else if (!state.selected.is_none()) {
        const Trace& t = *state.trace();
        const TimeNs st = t.slices().start_ns()[state.selected.index()];
        const DurNs d = std::max<DurNs>(t.slices().dur_ns()[state.selected.index()], 1000);
        state.request_fit = TimeRange{st - d / 10, st + d + d / 10};
      }
    }
  }
  // Drags: left on the ruler or with shift selects a range; otherwise (and
  // middle) pans in time and scrolls tracks.
  const ImVec2 press = io.MouseClickedPos[0];
  if (ImGui::IsItemActivated() && ImGui::IsMouseClicked(0)) {
    const bool on_ruler = press.y >= ruler.y0 && press.y < ruler.y1 && press.x >= ruler.x0;
    selecting_range_ = on_ruler || io.KeyShift;
    panning_ = !selecting_range_ && press.y >= content.y0;
    range_anchor_ns_ = vp.XToTime(press.x - content.x0);
  }
  if (active && ImGui::IsMouseDragging(0)) {
    if (selecting_range_) {
      const TimeNs now = vp.XToTime(mouse.x - content.x0);
      state.range = TimeRange{std::min(range_anchor_ns_, now), std::max(range_anchor_ns_, now)};
    } else if (panning_) {
      vp.Pan(io.MouseDelta.x);
      state.scroll_y -= io.MouseDelta.y;
    } else if (press.y < ruler.y0 && state.trace()) {  // overview: move the window there
      const TimeRange span = state.trace()->span();
      const double frac = std::clamp(static_cast<double>(mouse.x - content.x0) / content.w(), 0.0, 1.0);
      const TimeNs center = span.start_ns + static_cast<TimeNs>(frac * static_cast<double>(span.duration_ns()));
      const DurNs w = vp.visible.duration_ns();
      vp.visible = TimeRange{center - w / 2, center - w / 2 + w};
    }
  }
  if (active && ImGui::IsMouseDragging(2)) {
    vp.Pan(io.MouseDelta.x);
    state.scroll_y -= io.MouseDelta.y;
  }
  // A click (released without dragging) selects what is under the mouse.
  if (ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 9.f && press.y >= content.y0) {
    if (press.x >= content.x0) {
      state.selected = state.hovered;
      // A click on a shaded gap (not on a slice) selects the gap and its arrow.
      state.selected_gap = state.hovered.is_none() && hovered_gap_ >= 0 ? hovered_gap_ : -1;
      if (!io.KeyShift) state.range.reset();
    } else {
      // Click on a group header toggles it.
      const int r = RowAtY(layout_, press.y - (content.y0 - state.scroll_y));
      if (r >= 0 && layout_.rows[r].kind == RowKind::kGroupHeader && !layout_.rows[r].process.is_none()) {
        const uint32_t p = layout_.rows[r].process.value;
        if (!state.layout.collapsed_processes.erase(p)) state.layout.collapsed_processes.insert(p);
      }
    }
  }
  if (hovered && ImGui::IsMouseClicked(1) && mouse.x < content.x0 && mouse.y >= content.y0) {
    const int r = RowAtY(layout_, mouse.y - (content.y0 - state.scroll_y));
    if (r >= 0 && !layout_.rows[r].track.is_none()) {
      menu_track_ = layout_.rows[r].track;
      ImGui::OpenPopup("##track_menu");
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] Overview strip and ruler
//-----------------------------------------------------------------------------

void TimelinePanel::DrawOverview(ViewState& state, ImDrawList* dl, const Rect& r) {
  const TimelineData& data = *state.data;
  const Trace& trace = *data.trace;
  const float header_w = theme::kHeaderWidth * Scale();
  const Rect strip{r.x0 + header_w, r.y0 + 2, r.x1, r.y1 - 2};
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), theme::kRulerBackground);
  dl->AddText(ImVec2(r.x0 + 6, r.y0 + (r.h() - ImGui::GetFontSize()) / 2), theme::kTrackSubText,
              data.has_gpu ? "GPU busy (whole trace)" : "Whole trace");
  const TimeRange span = trace.span();
  if (span.empty()) return;
  // One bar per pixel column: the mean busy fraction of the bins under it.
  const int columns = std::max(1, static_cast<int>(strip.w()));
  const size_t bins = data.gpu_busy.size();
  for (int c = 0; c < columns && data.has_gpu; ++c) {
    const size_t b0 = bins * c / columns, b1 = std::max(b0 + 1, bins * (c + 1) / columns);
    float sum = 0;
    for (size_t b = b0; b < b1 && b < bins; ++b) sum += data.gpu_busy[b];
    const float frac = sum / static_cast<float>(b1 - b0);
    if (frac <= 0.f) continue;
    const float x = strip.x0 + static_cast<float>(c);
    dl->AddRectFilled(ImVec2(x, strip.y1 - frac * strip.h()), ImVec2(x + 1, strip.y1), theme::kOverviewBusy);
  }
  // The visible window.
  const double px_per_ns = strip.w() / static_cast<double>(span.duration_ns());
  const float wx0 = strip.x0 + static_cast<float>((state.viewport.visible.start_ns - span.start_ns) * px_per_ns);
  const float wx1 = strip.x0 + static_cast<float>((state.viewport.visible.end_ns - span.start_ns) * px_per_ns);
  dl->AddRectFilled(ImVec2(std::max(wx0, strip.x0), strip.y0), ImVec2(std::min(std::max(wx1, wx0 + 2), strip.x1), strip.y1),
                    theme::kOverviewWindow);
}

void TimelinePanel::DrawRuler(ViewState& state, ImDrawList* dl, const Rect& r, const Rect& content) {
  const Trace& trace = *state.trace();
  dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), theme::kRulerBackground);
  const TimeNs origin = state.ruler_origin_ns.value_or(trace.span().start_ns);
  const auto ticks = ComputeRulerTicks(state.viewport, origin, 110.0 * Scale());
  // Labels stay inside the ruler: the last one once ran off its right end.
  std::vector<float> label_w(ticks.size(), 0.f);
  for (size_t i = 0; i < ticks.size(); ++i) label_w[i] = ImGui::CalcTextSize(ticks[i].label.c_str()).x;
  const std::vector<double> label_x = PlaceRulerLabels(ticks, label_w, r.x1 - r.x0, theme::kRulerLabelPad * Scale());
  dl->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, content.y1), true);
  for (size_t i = 0; i < ticks.size(); ++i) {
    const RulerTick& t = ticks[i];
    const float x = r.x0 + static_cast<float>(t.x_px);
    const float tick_h = t.major ? r.h() * 0.45f : r.h() * 0.2f;
    dl->AddLine(ImVec2(x, r.y1 - tick_h), ImVec2(x, r.y1), theme::kRulerTick);
    if (t.major) {
      dl->AddLine(ImVec2(x, content.y0), ImVec2(x, content.y1), theme::kGridLine);
      if (label_x[i] >= 0) {
        dl->AddText(ImVec2(r.x0 + static_cast<float>(label_x[i]), r.y0 + 2), theme::kRulerText, t.label.c_str());
      }
    }
  }
  dl->PopClipRect();
  // Visible duration at the left of the header column, above the track names.
  const std::string span_label = "view " + FormatDuration(state.viewport.visible.duration_ns());
  const float header_w = theme::kHeaderWidth * Scale();
  dl->AddText(ImVec2(r.x0 - header_w + 6, r.y0 + 4), theme::kRulerText, span_label.c_str());
}

//-----------------------------------------------------------------------------
// [SECTION] Tracks
//-----------------------------------------------------------------------------

void TimelinePanel::DrawTracks(ViewState& state, ImDrawList* dl, const Rect& headers, const Rect& content,
                               QuadRenderer* renderer) {
  const Trace& trace = *state.trace();
  quads_.clear();
  labels_.clear();
  state.hovered = SliceId::None();
  hovered_run_count_ = 0;
  hovered_gap_ = -1;
  const float font = ImGui::GetFontSize();
  // Pass 1: backgrounds and headers; slice quads and labels are queued.
  dl->PushClipRect(ImVec2(headers.x0, headers.y0), ImVec2(content.x1, content.y1), true);
  for (size_t i = 0; i < layout_.rows.size(); ++i) {
    const LayoutRow& row = layout_.rows[i];
    const float y0 = content_top_ + row.y;
    if (y0 > content.y1 || y0 + row.height < content.y0) continue;
    if (row.kind == RowKind::kGroupHeader) {
      dl->AddRectFilled(ImVec2(headers.x0, y0), ImVec2(content.x1, y0 + row.height), theme::kGroupHeader);
      std::string label = row.process.is_none() ? "Pinned" : ProcessLabel(trace, row.process);
      label = (row.collapsed ? "+ " : "- ") + label + "   (" + FormatEventCount(row.event_count) + ")";
      dl->AddText(ImVec2(headers.x0 + 6, y0 + (row.height - font) / 2), theme::kGroupHeaderText, label.c_str());
      continue;
    }
    dl->AddRectFilled(ImVec2(content.x0, y0), ImVec2(content.x1, y0 + row.height),
                      i % 2 ? theme::kTrackBackgroundOdd : theme::kTrackBackgroundEven);
    DrawRowGaps(state, dl, row, y0, content);
    const std::string name = row.kind == RowKind::kCopyRow
                                 ? (row.copy.kind == GpuKind::kMemcpyH2D ? "Memcpy H2D" : "Memcpy D2H")
                                 : TrackLabel(trace, row.track);
    DrawTrackHeader(dl, name, row, y0, headers);
    if (row.kind == RowKind::kCounterTrack) {
      DrawCounterRow(state, dl, row, y0, content);
    } else {
      DrawSliceRow(state, dl, row, y0, content);
    }
  }
  dl->PopClipRect();
  // Pass 2: all slice rectangles at once, then selection/search outlines and labels.
  dl->PushClipRect(ImVec2(content.x0, content.y0), ImVec2(content.x1, content.y1), true);
  renderer->Draw(dl, quads_);
  Rect sel;
  if (!state.selected.is_none() && SliceScreenRect(state, state.selected, content, &sel)) {
    dl->AddRect(ImVec2(sel.x0 - 1, sel.y0 - 1), ImVec2(std::max(sel.x1, sel.x0 + 2) + 1, sel.y1 + 1), theme::kSelection,
                0.f, 0, 2.f);
  }
  char count_text[32];
  for (const Label& l : labels_) {
    const ImVec4 clip(l.x0 + 2, l.y0, l.x1 - 2, l.y1);
    std::string_view text = l.text;
    if (l.count > 1) {  // a folded run says how many slices it stands for
      text = std::string_view(count_text, std::snprintf(count_text, sizeof count_text, "%u slices", l.count));
      if (ImGui::CalcTextSize(text.data(), text.data() + text.size()).x > l.x1 - l.x0 - 6) {
        text = std::string_view(count_text, std::snprintf(count_text, sizeof count_text, "%u", l.count));
      }
    }
    dl->AddText(ImGui::GetFont(), font, ImVec2(l.x0 + 3, l.y0 + (l.y1 - l.y0 - font) / 2),
                l.count > 1 ? theme::kFoldedRunText : theme::kSliceText, text.data(), text.data() + text.size(), 0.f,
                &clip);
  }
  dl->PopClipRect();
}

// The track's name and its event count: under the name when the row is two
// lines tall, else right-aligned on the name's line (the name then ends in
// "..." before it when it does not fit).
void TimelinePanel::DrawTrackHeader(ImDrawList* dl, const std::string& name, const LayoutRow& row, float y0,
                                    const Rect& headers) const {
  const float font = ImGui::GetFontSize();
  const float left = headers.x0 + 14, right = headers.x1 - 6;
  const std::string count = FormatEventCount(row.event_count);
  dl->PushClipRect(ImVec2(headers.x0, std::max(y0, headers.y0)), ImVec2(headers.x1 - 4, y0 + row.height), true);
  const bool two_lines = row.height >= 2 * font;
  // A tall track scrolled half out of view keeps its name at the top of what
  // is left of it, as long as the name still fits in the row.
  const float text_h = (two_lines ? 2 : 1) * font + 2;
  const float top = std::max(y0, std::min(headers.y0, y0 + row.height - text_h)) + 2;
  float name_right = right;
  if (two_lines) {
    dl->AddText(ImVec2(left, top + font), theme::kTrackSubText, count.c_str());
  } else {
    const float count_w = ImGui::CalcTextSize(count.c_str()).x;
    const float name_w = ImGui::CalcTextSize(name.c_str()).x;
    if (name_w + count_w + 12 <= right - left || count_w + 40 <= right - left) {
      dl->AddText(ImVec2(right - count_w, top), theme::kTrackSubText, count.c_str());
      name_right = right - count_w - 8;
    }
  }
  const std::string shown = FitText(name, name_right - left, font);
  dl->AddText(ImVec2(left, top), theme::kTrackText, shown.c_str());
  dl->PopClipRect();
}

void TimelinePanel::UpdateHighlights(const ViewState& state) {
  const bool same_data = !highlight_data_.owner_before(state.data) && !state.data.owner_before(highlight_data_) &&
                         !highlight_data_.expired();
  if (same_data && state.highlight_generation == highlight_generation_) return;
  highlight_data_ = state.data;
  highlight_generation_ = state.highlight_generation;
  const Trace& trace = *state.trace();
  search_highlights_.Build(trace, state.search_matches);
  op_highlights_.Build(trace, state.op_occurrences);
}

void TimelinePanel::DrawSliceRow(ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                                 const Rect& content) {
  const TimelineData& data = *state.data;
  const Trace& trace = *data.trace;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool mouse_in_row = ImGui::IsItemHovered() && mouse.y >= y0 && mouse.y < y0 + row.height &&
                            mouse.x >= content.x0 && mouse.x < content.x1;
  items_.clear();
  const DrawListOptions options{theme::kMinSlicePx};
  if (row.kind == RowKind::kCopyRow) {
    for (size_t lane = 0; lane < row.levels; ++lane) {
      BuildRowDrawList(trace, data.copies.Lane(row.copy, lane), static_cast<uint16_t>(lane), state.viewport, &items_,
                       options);
    }
  } else {
    BuildSliceDrawList(trace, data.depths, row.track, state.viewport, &items_, options);
  }
  // While something is highlighted, everything else is dimmed, so the
  // highlights stand out from the per-name palette at any zoom.
  const bool highlighting = !search_highlights_.empty() || !op_highlights_.empty();
  auto holds = [&](const HighlightIndex& h, const SliceDrawItem& it) {
    if (h.empty()) return false;
    if (it.count == 1) return h.Contains(it.slice.value);
    return row.kind == RowKind::kCopyRow
               ? h.AnyInLaneRun(data.copies.Lane(row.copy, it.depth), it.index, it.count)
               : h.AnyInDepthRun(data.depths.Rows(row.track, it.depth), it.index, it.count, it.depth);
  };
  const float min_label_px = theme::kMinLabelPx * Scale();
  for (const SliceDrawItem& it : items_) {
    const float x0 = content.x0 + it.x0_px, x1 = content.x0 + std::max(it.x1_px, it.x0_px + 1.f);
    const float top = y0 + it.depth * row_height_ + 1, bottom = top + row_height_ - 2;
    if (top > content.y1 || bottom < content.y0) continue;
    uint32_t color = it.count > 1 ? theme::kFoldedRun : ColorForSlice(trace, it.slice, state.color_mode);
    if (holds(search_highlights_, it)) {
      color = theme::kSearchMatch;
    } else if (holds(op_highlights_, it)) {
      color = theme::kOpHighlight;
    } else if (highlighting) {
      color = theme::Dimmed(color);
    }
    quads_.push_back({x0, top, x1, bottom, color});
    if (x1 - x0 < min_label_px) continue;
    if (it.count == 1) {
      labels_.push_back({std::max(x0, content.x0), top, std::min(x1, content.x1), bottom,
                         trace.str(trace.slices().name()[it.slice.index()])});
    } else {
      labels_.push_back({std::max(x0, content.x0), top, std::min(x1, content.x1), bottom, {}, it.count});
    }
  }
  if (mouse_in_row) {
    const uint16_t depth = static_cast<uint16_t>((mouse.y - y0) / row_height_);
    const int hit = ItemAtX(items_, depth, mouse.x - content.x0);
    if (hit >= 0) {
      state.hovered = items_[hit].count == 1 ? items_[hit].slice : SliceId::None();
      hovered_run_count_ = items_[hit].count;
    }
  }
  // Instants: a thin tick at the top of the row.
  if (!row.track.is_none()) {
    const auto& r = trace.tracks().ranges(row.track);
    const auto ts = trace.instants().ts_ns();
    const auto end = ts.begin() + r.instant_end;
    auto it = std::lower_bound(ts.begin() + r.instant_begin, end, state.viewport.visible.start_ns);
    // One tick per 2 px: after drawing one, jump past the next 2 px by binary
    // search, so a million instants cost a few hundred steps.
    while (it != end && *it < state.viewport.visible.end_ns) {
      const double x_px = state.viewport.TimeToX(*it);
      const float x = content.x0 + static_cast<float>(x_px);
      dl->AddTriangleFilled(ImVec2(x - 3, y0 + 1), ImVec2(x + 3, y0 + 1), ImVec2(x, y0 + 7), theme::kSearchMatch);
      it = std::lower_bound(it + 1, end, std::max(*it + 1, state.viewport.XToTime(x_px + 2.0)));
    }
  }
}

void TimelinePanel::DrawCounterRow(ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                                   const Rect& content) {
  const Trace& trace = *state.trace();
  const auto& r = trace.tracks().ranges(row.track);
  if (r.counter_end == r.counter_begin) return;
  auto [lo, hi] = state.data->counter_range[row.track.index()];
  if (hi <= lo) hi = lo + 1;
  // Step chart, one column per pixel holding the column's maximum.
  const int width = static_cast<int>(content.w());
  std::vector<float> column;
  BuildCounterColumns(trace, row.track, state.data->counter_max, state.viewport, width, &column);
  const float h = row.height - 4;
  for (int c = 0; c < width; ++c) {
    if (std::isnan(column[c])) continue;
    const float frac = static_cast<float>((column[c] - lo) / (hi - lo));
    const float x = content.x0 + static_cast<float>(c);
    dl->AddRectFilled(ImVec2(x, y0 + 2 + h * (1 - frac)), ImVec2(x + 1, y0 + 2 + h), theme::kCounterFill);
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "max %.4g", hi);
  dl->AddText(ImVec2(content.x1 - 90, y0 + 2), theme::kTrackSubText, buf);
}

//-----------------------------------------------------------------------------
// [SECTION] Flows, range selection, tooltip, context menu
//-----------------------------------------------------------------------------

bool TimelinePanel::SliceScreenRect(const ViewState& state, SliceId slice, const Rect& content, Rect* out) const {
  const Trace& trace = *state.trace();
  const size_t r = row_of_track_[trace.slices().track()[slice.index()].index()];
  if (r == SIZE_MAX) return false;
  const float y = content_top_ + layout_.rows[r].y + trace.slices().depth()[slice.index()] * row_height_;
  const TimeNs start = trace.slices().start_ns()[slice.index()];
  out->x0 = content.x0 + static_cast<float>(state.viewport.TimeToX(start));
  out->x1 = content.x0 + static_cast<float>(state.viewport.TimeToX(start + trace.slices().dur_ns()[slice.index()]));
  out->y0 = y + 1;
  out->y1 = y + row_height_ - 1;
  return true;
}

void TimelinePanel::DrawFlows(ViewState& state, ImDrawList* dl, const Rect& content) {
  const TimelineData& data = *state.data;
  const FlowTable& flows = data.trace->flows();
  auto draw_arrow = [&](uint32_t f) {
    Rect a, b;
    if (!SliceScreenRect(state, flows.from()[f], content, &a) || !SliceScreenRect(state, flows.to()[f], content, &b))
      return;
    DrawArrow(dl, a, b, theme::kFlowArrow);
  };
  if (!state.selected.is_none()) {
    const uint32_t sel = state.selected.value;
    auto from = flows.from();
    for (auto it = std::lower_bound(from.begin(), from.end(), state.selected); it != from.end() && it->value == sel; ++it)
      draw_arrow(static_cast<uint32_t>(it - from.begin()));
    auto to = flows.to();
    auto lo = std::lower_bound(data.flows_by_to.begin(), data.flows_by_to.end(), sel,
                               [&](uint32_t f, uint32_t v) { return to[f].value < v; });
    for (; lo != data.flows_by_to.end() && to[*lo].value == sel; ++lo) draw_arrow(*lo);
  }
  if (state.show_all_flows) {
    data.flow_window.InView(state.viewport.visible, theme::kMaxFlowArrows, &flows_in_view_);
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
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(std::string(trace.str(trace.slices().name()[i])).c_str());
    ImGui::Text("%s", FormatDuration(trace.slices().dur_ns()[i]).c_str());
    const std::string_view cat = trace.str(trace.slices().category()[i]);
    if (!cat.empty()) ImGui::TextDisabled("%.*s", static_cast<int>(cat.size()), cat.data());
    if (trace.slices().gpu_kind()[i] != GpuKind::kNone) {
      const std::string_view kind = GpuKindName(trace.slices().gpu_kind()[i]);
      ImGui::TextDisabled("%.*s", static_cast<int>(kind.size()), kind.data());
    }
    ImGui::EndTooltip();
  } else if (hovered_run_count_ > 1) {
    ImGui::SetTooltip("%u slices folded here; zoom in to see them", hovered_run_count_);
  } else if (hovered_gap_ >= 0) {
    ImGui::BeginTooltip();
    GapTooltip(trace, state.data->analysis, static_cast<uint32_t>(hovered_gap_), hovered_gap_count_,
               hovered_gap_fraction_);
    ImGui::EndTooltip();
  } else if (hovered_step_ >= 0) {
    ImGui::BeginTooltip();
    StepTooltip(state, hovered_step_);
    ImGui::EndTooltip();
  }
}

void TimelinePanel::DrawTrackMenu(ViewState& state) {
  if (!ImGui::BeginPopup("##track_menu")) return;
  if (!menu_track_.is_none()) {
    const bool pinned = state.layout.pinned_tracks.count(menu_track_.value) > 0;
    if (ImGui::MenuItem(pinned ? "Unpin" : "Pin to top")) {
      if (pinned) state.layout.pinned_tracks.erase(menu_track_.value);
      else state.layout.pinned_tracks.insert(menu_track_.value);
    }
    if (ImGui::MenuItem("Hide track")) state.layout.hidden_tracks.insert(menu_track_.value);
  }
  if (ImGui::MenuItem("Show hidden tracks", nullptr, false, !state.layout.hidden_tracks.empty())) {
    state.layout.hidden_tracks.clear();
  }
  ImGui::EndPopup();
}

//-----------------------------------------------------------------------------
// [SECTION] Analysis: Steps strip, idle-gap shading, blame arrow
//-----------------------------------------------------------------------------

void TimelinePanel::DrawStepsRow(ViewState& state, ImDrawList* dl, const Rect& strip) {
  const ImGuiIO& io = ImGui::GetIO();
  const bool in_strip = ImGui::IsItemHovered() && io.MousePos.y >= strip.y0 && io.MousePos.y < strip.y1 &&
                        io.MousePos.x >= strip.x0;
  hovered_step_ = DrawStepsStrip(state, dl, strip.x0, strip.y0, strip.x1, strip.y1, theme::kHeaderWidth * Scale(),
                                 in_strip, io.MousePos.x);
  // A click (not a drag) on a step frames it.
  const ImVec2 press = io.MouseClickedPos[0];
  if (hovered_step_ >= 0 && ImGui::IsItemDeactivated() && io.MouseDragMaxDistanceSqr[0] < 9.f &&
      press.y >= strip.y0 && press.y < strip.y1) {
    const analysis::ReportStep& st = state.data->analysis.report.steps[hovered_step_];
    state.focused_step = hovered_step_;
    state.FitRange(TimeRange{st.start_ns, st.start_ns + st.dur_ns}, 0.02);
  }
}

void TimelinePanel::BuildGapItems(const ViewState& state) {
  const AnalysisData& a = state.data->analysis;
  gap_items_.resize(a.device_gaps.size());
  const GapIndex& gaps = gap_filter_.Get(state.data, state.gap_cause_mask, state.gap_min_dur_ns);
  for (uint32_t d = 0; d < gap_items_.size(); ++d) {
    gap_items_[d].clear();
    if (state.show_gap_overlay) BuildGapOverlay(gaps, d, state.viewport, 1.f, &gap_items_[d]);
  }
}

void TimelinePanel::DrawRowGaps(const ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                                const Rect& content) {
  if (!state.show_gap_overlay) return;
  const AnalysisData& a = state.data->analysis;
  int device = -1;
  if (row.kind == RowKind::kSliceTrack && state.trace()->tracks().kind(row.track) == TrackKind::kGpuStream) {
    device = a.device_of_track[row.track.index()];
  } else if (row.kind == RowKind::kCopyRow) {
    device = DeviceIndexOfId(a, row.copy.device_id);
  }
  if (device < 0) return;
  const std::vector<GapOverlayItem>& items = gap_items_[device];
  DrawGapShading(dl, items, content.x0, y0, y0 + row.height, state.selected_gap);
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
  if (state.selected_gap < 0 || static_cast<size_t>(state.selected_gap) >= a.gaps.size()) return;
  const analysis::IdleGap& g = a.gaps[state.selected_gap];
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
