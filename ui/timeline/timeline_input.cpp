// TimelinePanel input: wheel zoom, drag pan, W/A/S/D/F/0 keys, clicks
// (select, toggle a group), range selection, and the track context menu.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/input/test_events.h"
#include "ui/timeline/hit_test.h"
#include "ui/timeline/key_zoom.h"
#include "ui/timeline/timeline_panel.h"

namespace stepline::ui {
namespace {

// GLFW key codes (== ASCII for letters and digits); ImGui 1.86 indexes
// io.KeysDown by the backend's codes.
constexpr int kKeyW = 'W', kKeyA = 'A', kKeyS = 'S', kKeyD = 'D', kKeyF = 'F', kKey0 = '0';

}  // namespace

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
      state.history.BeforeChange(vp.visible, ViewChange::kZoomStep, ImGui::GetTime());
      vp.ZoomAround(x, std::pow(1.25, io.MouseWheel));
      TestEvent(io.MouseWheel > 0 ? "zoom.in" : "zoom.out", "by=wheel");
    }
  }
  // Ctrl+letter and Ctrl+0 are the window's (text size), not the view's.
  const bool keys_enabled =
      ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !io.WantTextInput && !io.KeyCtrl && !io.KeyAlt;
  if (keys_enabled) {
    const double anchor = mouse_in_content && hovered ? mouse.x - content.x0 : content.w() / 2;
    // W / S: a step per press, then a zoom that speeds up while held (key_zoom.h).
    for (const auto& [key, in] : {std::pair{kKeyW, true}, std::pair{kKeyS, false}}) {
      if (!ImGui::IsKeyDown(key)) continue;
      const double held = io.KeysDownDuration[key];
      if (held == 0.f) {
        state.history.BeforeChange(vp.visible, ViewChange::kZoomStep, ImGui::GetTime());
        TestEvent(in ? "zoom.in" : "zoom.out", "by=key");
      }
      const double f = held == 0.f ? KeyZoomCurve::kTapFactor : KeyZoomFactor(held, io.DeltaTime);
      if (f != 1.0) vp.ZoomAround(anchor, in ? f : 1 / f);
    }
    const bool pan_left = ImGui::IsKeyPressed(kKeyA), pan_right = ImGui::IsKeyPressed(kKeyD);
    if (pan_left || pan_right) state.history.BeforeChange(vp.visible, ViewChange::kKeyPan, ImGui::GetTime());
    if (pan_left) vp.Pan(content.w() * 0.1);
    if (pan_right) vp.Pan(-content.w() * 0.1);
    if (ImGui::IsKeyPressed(kKey0, false)) state.FitAll();
    if (ImGui::IsKeyPressed(kKeyF, false)) {
      if (state.range) {
        state.requests.fit = *state.range;
      } else if (!state.selected.is_none()) {
        const Trace& t = *state.trace();
        const TimeNs st = t.slices().start_ns()[state.selected.index()];
        const DurNs d = std::max<DurNs>(t.slices().dur_ns()[state.selected.index()], 1000);
        state.requests.fit = TimeRange{st - d / 10, st + d + d / 10};
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
  // A drag that moves the view is one history entry, from where it started.
  if (ImGui::IsItemActivated()) drag_recorded_ = false;
  const bool view_drag = (ImGui::IsMouseDragging(0) && !selecting_range_) || ImGui::IsMouseDragging(2);
  if (active && view_drag && !drag_recorded_) {
    state.history.BeforeChange(vp.visible, ViewChange::kDrag, ImGui::GetTime());
    drag_recorded_ = true;
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
      state.links.selected_gap = state.hovered.is_none() && hovered_gap_ >= 0 ? hovered_gap_ : -1;
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
  // Right-click on a track name: its menu opens on release, as the panel
  // menus do, and before them (they do not open over another popup). On
  // press it lost to them when another menu was still open at the press.
  const ImVec2 right_press = io.MouseClickedPos[1];
  if (ImGui::IsMouseReleased(1) && ImGui::IsWindowHovered(ImGuiHoveredFlags_ChildWindows) &&
      right_press.x < content.x0 && mouse.x < content.x0 && right_press.y >= content.y0 && mouse.y >= content.y0 &&
      !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel)) {
    const int r = RowAtY(layout_, right_press.y - (content.y0 - state.scroll_y));
    if (r >= 0 && !layout_.rows[r].track.is_none()) {
      menu_track_ = layout_.rows[r].track;
      ImGui::OpenPopup("##track_menu");
    }
  }
}

void TimelinePanel::DrawTrackMenu(ViewState& state) {
  if (!ImGui::BeginPopup("##track_menu")) return;
  if (!menu_track_.is_none()) {
    const bool pinned = state.layout.pinned_tracks.count(menu_track_.value) > 0;
    if (ImGui::MenuItem(pinned ? "Unpin" : "Pin to top")) {
      if (pinned)
        state.layout.pinned_tracks.erase(menu_track_.value);
      else
        state.layout.pinned_tracks.insert(menu_track_.value);
    }
    if (ImGui::MenuItem("Hide track")) state.layout.hidden_tracks.insert(menu_track_.value);
  }
  if (ImGui::MenuItem("Show hidden tracks", nullptr, false, !state.layout.hidden_tracks.empty())) {
    state.layout.hidden_tracks.clear();
  }
  ImGui::EndPopup();
}

}  // namespace stepline::ui
