// TimelinePanel::DrawCriticalPath: the steps' critical paths
// (model/analysis/critical_path/) over the timeline, when the View menu's
// "Show critical path" is on. Each segment outlines the part of its slice
// that holds the path, and a line joins consecutive segments, so the path
// is drawn through the rows it passes (host thread, stream, back to host).
#include <imgui.h>

#include <algorithm>

#include "ui/analysis_data.h"
#include "ui/theme.h"
#include "ui/timeline/timeline_panel.h"

namespace stepline::ui {
namespace {

inline constexpr uint32_t kCriticalPath = theme::Rgba(255, 64, 160, 235);
inline constexpr uint32_t kCriticalPathFill = theme::Rgba(255, 64, 160, 60);
inline constexpr size_t kMaxPathSegmentsDrawn = 20'000;  // per frame: a fit-all view of a long trace

}  // namespace

void TimelinePanel::DrawCriticalPath(const ViewState& state, ImDrawList* dl, const Rect& content) {
  if (!state.show_critical_path || state.data == nullptr) return;
  const AnalysisData& a = state.data->analysis;
  const TimeRange visible = state.viewport.visible;
  const double px_per_ns = state.viewport.px_per_ns();
  auto x_of = [&](TimeNs t) { return content.x0 + static_cast<float>(state.viewport.TimeToX(t)); };
  size_t drawn = 0;
  const size_t n = std::min(a.critical_paths.size(), a.steps.steps.size());
  for (size_t k = 0; k < n && drawn < kMaxPathSegmentsDrawn; ++k) {
    const analysis::CriticalPath& p = a.critical_paths[k];
    if (p.start_ns >= visible.end_ns || p.start_ns + p.dur_ns <= visible.start_ns) continue;
    bool have_prev = false;
    ImVec2 prev;
    for (const analysis::PathSegment& seg : p.segments) {
      if (seg.slice.is_none()) continue;  // idle: the joining line crosses it
      Rect r;
      if (!SliceScreenRect(state, seg.slice, content, &r)) {
        have_prev = false;  // its row is folded away or off screen
        continue;
      }
      const float x0 = std::max(r.x0, x_of(seg.start_ns));
      const float x1 = std::max(x0 + 1.f, std::min(r.x1, x_of(seg.start_ns + seg.dur_ns)));
      const float ym = (r.y0 + r.y1) / 2;
      if (have_prev && (prev.x != x0 || prev.y != ym)) dl->AddLine(prev, ImVec2(x0, ym), kCriticalPath, 2.f);
      if (seg.dur_ns * px_per_ns >= 1.0) {
        dl->AddRectFilled(ImVec2(x0, r.y0), ImVec2(x1, r.y1), kCriticalPathFill);
        dl->AddRect(ImVec2(x0, r.y0), ImVec2(x1, r.y1), kCriticalPath, 0.f, 0, 2.f);
      }
      prev = ImVec2(x1, ym);
      have_prev = true;
      if (++drawn >= kMaxPathSegmentsDrawn) break;
    }
  }
}

}  // namespace stepline::ui
