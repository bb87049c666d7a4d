// AlignedTimelines: step selection, the two panels and their sync; see
// aligned_timelines.h.
//
// Each panel is drawn in a top-level window of its own rather than a child
// window: TimelinePanel takes keys (W/A/S/D, 0, F) when its root window has
// focus, and two children share one root, so both would act on one key
// press. With two windows only the clicked one has focus; sync carries the
// move to the other.
#include "ui/compare/aligned_timelines.h"

#include <imgui.h>

#include <algorithm>

#include "ui/analysis_format.h"
#include "ui/compare/compare_theme.h"
#include "ui/input/test_events.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"
#include "ui/ui_scale.h"

namespace stepline::ui {

using analysis::CompareSide;

namespace {


int ClampStep(int step, size_t steps) {
  if (steps == 0) return -1;
  return std::clamp(step, 0, static_cast<int>(steps) - 1);
}

DurNs StepDur(const CompareSide& side, int step) {
  return step < 0 || static_cast<size_t>(step) >= side.step_dur_ns.size() ? 0 : side.step_dur_ns[step];
}

TimeNs TraceStart(const ViewState& s) { return s.trace() ? s.trace()->span().start_ns : 0; }

}  // namespace

void AlignedTimelines::SelectSteps(ViewState& a, ViewState& b, const analysis::Comparison& c, int step_a, int step_b) {
  steps_[0] = ClampStep(step_a, c.a.step_start_ns.size());
  steps_[1] = ClampStep(step_b, c.b.step_start_ns.size());
  StepAlignment align;
  align.origin_a = StepOrigin(c.a.step_start_ns, steps_[0], TraceStart(a));
  align.origin_b = StepOrigin(c.b.step_start_ns, steps_[1], TraceStart(b));
  a.ruler_origin_ns = align.origin_a;
  b.ruler_origin_ns = align.origin_b;
  a.links.focused_step = steps_[0];
  b.links.focused_step = steps_[1];
  a.viewport.Fit(AlignedStepWindowA(align, StepDur(c.a, steps_[0]), StepDur(c.b, steps_[1])));
  a.requests.fit.reset();
  b.requests.fit.reset();
  b.viewport.visible = MapViewport(a.viewport, align.origin_a, align.origin_b).visible;
  sync_.Reset(align, a.viewport, b.viewport);
}

void AlignedTimelines::ShowRelativeRange(ViewState& a, ViewState& b, DurNs start_ns, DurNs end_ns) {
  const StepAlignment align = sync_.alignment();
  a.viewport.Fit(TimeRange{align.origin_a + start_ns, align.origin_a + end_ns});
  a.requests.fit.reset();
  b.requests.fit.reset();
  b.viewport.visible = MapViewport(a.viewport, align.origin_a, align.origin_b).visible;
  sync_.Reset(align, a.viewport, b.viewport);
}

void AlignedTimelines::Draw(ViewState states[2], const std::string titles[2], const analysis::Comparison& c,
                            float width, float height, QuadRenderer* renderer, ComparePanelMenus* menus) {
  const float top = ImGui::GetCursorScreenPos().y;
  DrawSelector(states, c);
  const float title_h = theme::kCompareTitleHeight * UiScale();
  const float used = ImGui::GetCursorScreenPos().y - top;
  const float panel_h = std::max(80.f, (height - used - 2 * title_h) / 2);
  const CompareSide* sides[2] = {&c.a, &c.b};
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar |
                                 ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoFocusOnAppearing;
  for (int side = 0; side < 2; ++side) {
    // The side drawn now follows the other when the other moved: A follows
    // B's move of the previous frame, B follows A's move of this frame.
    sync_.Follow(side == 0 ? ViewportSync::Side::kB : ViewportSync::Side::kA, states[1 - side].viewport,
                 &states[side].viewport);
    const float title_top = ImGui::GetCursorScreenPos().y;
    DrawTitle(states[side], titles[side], *sides[side], side, width);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(width, panel_h));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.f);
    ImGui::Begin(side == 0 ? "##compare_timeline_a" : "##compare_timeline_b", nullptr, flags);
    ImGui::PopStyleVar(3);
    panels_[side].Draw(states[side], renderer);
    DrawStepEdges(states[side], *sides[side], side);
    if (TestEventsOn()) {
      // Where a named slice is, for a scripted walk to click (again when it moves).
      float x = 0, y = 0;
      std::string where;
      if (panels_[side].NamedSliceCenter(&x, &y)) {
        where = "x=" + std::to_string(static_cast<int>(x)) + " y=" + std::to_string(static_cast<int>(y));
      }
      if (!where.empty() && where != reported_slice_[side]) {
        TestEvent("compare.slice", std::string("side=") + (side == 0 ? "A " : "B ") + where);
      }
      reported_slice_[side] = where;
    }
    if (menus != nullptr) {
      const PanelShot shot{side == 0 ? "timeline-a" : "timeline-b", pos.x, title_top, pos.x + width, pos.y + panel_h};
      if (BeginPanelMenu(side == 0 ? "##timeline_a_menu" : "##timeline_b_menu")) {
        PictureMenuItems(side == 0 ? "timeline A" : "timeline B", shot, menus);
        ImGui::EndPopup();
      }
    }
    ImGui::End();
    ImGui::Dummy(ImVec2(width, panel_h));  // the space the window covers, in the parent's layout
  }
  // A click on a step in either Steps strip focuses it: align on it, and move
  // the other run by as many steps, so the pairing (e.g. one cut step) holds.
  for (int side = 0; side < 2; ++side) {
    const int focused = states[side].links.focused_step;
    if (focused < 0 || focused == steps_[side] || steps_[side] < 0) continue;
    const int shift = focused - steps_[side];
    SelectSteps(states[0], states[1], c, steps_[0] + shift, steps_[1] + shift);
    break;
  }
}

void AlignedTimelines::DrawSelector(ViewState states[2], const analysis::Comparison& c) {
  const CompareSide* sides[2] = {&c.a, &c.b};
  const bool has_steps = !c.a.step_start_ns.empty() || !c.b.step_start_ns.empty();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Aligned on");
  if (!has_steps) {
    ImGui::SameLine();
    ImGui::TextDisabled("the trace starts (no steps found in either run)");
    return;
  }
  int want[2] = {steps_[0], steps_[1]};
  bool changed = false;
  ImGui::SameLine();
  if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) {
    --want[0], --want[1];
    changed = true;
  }
  if (ImGui::IsItemHovered()) WrappedTooltip("Previous step of both runs");
  for (int side = 0; side < 2; ++side) {
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(side == 0 ? theme::kRunA : theme::kRunB),
                       side == 0 ? "A step" : "B step");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90 * UiScale());
    ImGui::PushID(side);
    ImGui::BeginDisabled(sides[side]->step_start_ns.empty());
    int shown = std::max(0, want[side]);
    if (ImGui::InputInt("##step", &shown)) {
      want[side] = shown;
      changed = true;
    }
    ImGui::EndDisabled();
    ImGui::PopID();
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right)) {
    ++want[0], ++want[1];
    changed = true;
  }
  if (ImGui::IsItemHovered()) WrappedTooltip("Next step of both runs");
  // On the next line when the window is narrow, rather than cut off.
  const char* first_full = "first full steps";
  SameLineIfFits(ImGui::CalcTextSize(first_full).x + 2 * ImGui::GetStyle().FramePadding.x);
  if (ImGui::SmallButton(first_full)) {
    want[0] = c.a.first_full_step;
    want[1] = c.b.first_full_step;
    changed = true;
  }
  if (ImGui::IsItemHovered()) {
    WrappedTooltip("The first step of each run that the capture did not cut\n(A step %d, B step %d)",
                      c.a.first_full_step, c.b.first_full_step);
  }
  // The hint when it fits, else behind a "(?)".
  const char* hint = "rulers count from each aligned step's start; zoom and pan move both";
  SameLineIfFits(ImGui::CalcTextSize("(?)").x);
  if (ImGui::CalcTextSize(hint).x < ImGui::GetContentRegionAvail().x) {
    ImGui::TextDisabled("%s", hint);
  } else {
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) WrappedTooltip("%s", hint);
  }
  if (changed) SelectSteps(states[0], states[1], c, want[0], want[1]);
}

void AlignedTimelines::DrawTitle(const ViewState& state, const std::string& title, const CompareSide& side, int index,
                                 float width) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = theme::kCompareTitleHeight * UiScale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const uint32_t color = index == 0 ? theme::kRunA : theme::kRunB;
  dl->AddRectFilled(p, ImVec2(p.x + width, p.y + h), theme::kGroupHeader);
  dl->AddRectFilled(p, ImVec2(p.x + 4 * UiScale(), p.y + h), color);
  std::string text = std::string(index == 0 ? "A  " : "B  ") + title;
  const int step = steps_[index];
  if (step >= 0 && static_cast<size_t>(step) < side.step_names.size()) {
    text += "    step " + std::to_string(step) + ": " + side.step_names[step] + ", " +
            FormatDuration(side.step_dur_ns[step]);
  } else if (state.trace()) {
    text += "    no steps: aligned on the trace start";
  }
  // Cut with "..." when narrow, so the step is seen to go on.
  const float text_x = 10 * UiScale();
  text = FitText(text, width - text_x, ImGui::GetFontSize());
  const ImVec4 clip(p.x, p.y, p.x + width, p.y + h);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(p.x + text_x, p.y + (h - ImGui::GetFontSize()) / 2), color,
              text.c_str(), nullptr, 0.f, &clip);
  ImGui::Dummy(ImVec2(width, h));
}

void AlignedTimelines::DrawStepEdges(const ViewState& state, const CompareSide& side, int index) const {
  if (side.step_start_ns.empty() || state.trace() == nullptr) return;
  const float s = UiScale();
  const ImVec2 pos = ImGui::GetWindowPos();
  const ImVec2 size = ImGui::GetWindowSize();
  // The tracks' column: right of the names, below the overview strip and ruler.
  const float x0 = pos.x + theme::kHeaderWidth * s, x1 = pos.x + size.x;
  const float y0 = pos.y + (theme::kOverviewHeight + theme::kRulerHeight) * s, y1 = pos.y + size.y;
  const Viewport& vp = state.viewport;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(x0, y0), ImVec2(x1, y1), true);
  const auto& starts = side.step_start_ns;
  auto it = std::lower_bound(starts.begin(), starts.end(), vp.visible.start_ns);
  if (it != starts.begin()) --it;
  float last_x = -1e9f;
  for (; it != starts.end() && *it <= vp.visible.end_ns; ++it) {
    const float x = x0 + static_cast<float>(vp.TimeToX(*it));
    if (x - last_x < 4) continue;  // thousands of steps in view: one line per few pixels
    last_x = x;
    dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), theme::kStepEdge);
  }
  const int step = steps_[index];
  if (step >= 0 && static_cast<size_t>(step) < starts.size()) {
    const float xs = x0 + static_cast<float>(vp.TimeToX(starts[step]));
    const float xe = x0 + static_cast<float>(vp.TimeToX(starts[step] + side.step_dur_ns[step]));
    dl->AddLine(ImVec2(xs, y0), ImVec2(xs, y1), theme::kAlignedStepEdge, 1.5f * s);
    dl->AddLine(ImVec2(xe, y0), ImVec2(xe, y1), theme::kAlignedStepEdge, 1.5f * s);
  }
  dl->PopClipRect();
}

}  // namespace stepline::ui
