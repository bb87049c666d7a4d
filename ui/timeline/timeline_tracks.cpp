// TimelinePanel tracks: group headers, track headers, slice rows (quads and
// labels, search/op highlights), instants and counter rows.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "model/text_format.h"
#include "ui/analysis_format.h"
#include "ui/memory/memory_row.h"
#include "ui/theme.h"
#include "ui/timeline/hit_test.h"
#include "ui/timeline/slice_colors.h"
#include "ui/timeline/timeline_panel.h"

namespace stepline::ui {
namespace {

// "1 event", "12,345 events".
std::string FormatEventCount(uint64_t n) { return text::FormatCount(n) + (n == 1 ? " event" : " events"); }

}  // namespace

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
    if (row.kind == RowKind::kMemoryRow) {
      const MemorySeries& series = state.data->memory[static_cast<size_t>(row.memory)];
      LayoutRow labelled = row;
      labelled.event_count = series.ts.size();
      DrawTrackHeader(dl, "Memory", labelled, y0, headers);
      dl->PushClipRect(ImVec2(content.x0, std::max(y0, content.y0)), ImVec2(content.x1, y0 + row.height), true);
      DrawMemoryRow(series, state.viewport, dl, content.x0, y0, content.w(), row.height, ImGui::IsItemHovered());
      dl->PopClipRect();
      continue;
    }
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
  for (const LayoutRow& row : layout_.rows) {  // over the slices and their names: a replay's bracket spans its nodes
    const float y0 = content_top_ + row.y;
    if (y0 <= content.y1 && y0 + row.height >= content.y0) DrawRowGraphReplays(state, dl, row, y0, content);
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
  if (same_data && state.links.highlight_generation == highlight_generation_) return;
  highlight_data_ = state.data;
  highlight_generation_ = state.links.highlight_generation;
  const Trace& trace = *state.trace();
  search_highlights_.Build(trace, state.search.matches);
  op_highlights_.Build(trace, state.links.op_occurrences);
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
      BuildRowDrawList(trace, data.copies.Lane(row.copy, lane), {}, static_cast<uint16_t>(lane), state.viewport, &items_,
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

}  // namespace stepline::ui
