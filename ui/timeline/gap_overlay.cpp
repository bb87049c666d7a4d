// GapOverlay: folding gaps into pixel items, shading and tooltips.
#include "ui/timeline/gap_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/analysis_format.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

void BuildGapOverlay(const AnalysisData& analysis, uint32_t device, const Viewport& viewport, float min_px,
                     DurNs min_gap_ns, std::vector<GapOverlayItem>* out) {
  out->clear();
  const auto [begin, end] = GapsInRange(analysis, device, viewport.visible);
  const float width = static_cast<float>(viewport.width_px);
  DurNs longest = 0;  // of the last item
  for (uint32_t i = begin; i < end; ++i) {
    const analysis::IdleGap& g = analysis.gaps[i];
    if (g.dur_ns() < min_gap_ns) continue;
    const float x0 = std::max(-1.f, static_cast<float>(viewport.TimeToX(g.start_ns)));
    const float x1 = std::min(width + 1, static_cast<float>(viewport.TimeToX(g.end_ns)));
    if (!out->empty() && x0 < out->back().x1_px + min_px) {
      GapOverlayItem& last = out->back();
      last.x1_px = std::max(last.x1_px, x1);
      ++last.count;
      if (g.dur_ns() > longest) {
        longest = g.dur_ns();
        last.gap = i;
        last.cause = g.cause;
      }
      continue;
    }
    out->push_back({x0, x1, i, g.cause, 1});
    longest = g.dur_ns();
  }
}

int GapItemAtX(const std::vector<GapOverlayItem>& items, float x_px) {
  auto it = std::partition_point(items.begin(), items.end(), [&](const GapOverlayItem& g) {
    return std::max(g.x1_px, g.x0_px + 1) <= x_px;
  });
  if (it == items.end() || it->x0_px > x_px) return -1;
  return static_cast<int>(it - items.begin());
}

void DrawGapShading(ImDrawList* dl, const std::vector<GapOverlayItem>& items, float content_x0, float y0, float y1,
                    int32_t selected_gap) {
  for (const GapOverlayItem& g : items) {
    const uint32_t color = (CauseColor(g.cause) & 0x00ffffffu) | (uint32_t{theme::kGapShadeAlpha} << 24);
    const ImVec2 a(content_x0 + g.x0_px, y0), b(content_x0 + std::max(g.x1_px, g.x0_px + 1), y1);
    dl->AddRectFilled(a, b, color);
    if (static_cast<int32_t>(g.gap) == selected_gap) dl->AddRect(a, b, theme::kGapSelected, 0.f, 0, 2.f);
  }
}

void GapTooltip(const Trace& trace, const AnalysisData& analysis, uint32_t gap, uint32_t folded) {
  const analysis::IdleGap& g = analysis.gaps[gap];
  const analysis::Report& r = analysis.report;
  ColorSwatch(CauseColor(g.cause));
  ImGui::Text("GPU idle: %s, %s", CauseLabel(g.cause), FormatDuration(g.dur_ns()).c_str());
  if (folded > 1) ImGui::TextDisabled("(longest of %u gaps folded here; zoom in to see them)", folded);
  ImGui::TextDisabled("%s", r.devices[analysis.gap_device[gap]].name.c_str());
  if (g.step >= 0 && static_cast<size_t>(g.step) < r.steps.size()) {
    ImGui::TextDisabled("in step %s", r.steps[g.step].name.c_str());
  }
  if (!g.cause_events.empty()) ImGui::TextUnformatted("Blamed:");
  for (const analysis::BlamedEvent& e : g.cause_events) {
    const std::string_view name = trace.str(trace.slices().name()[e.slice.index()]);
    ImGui::BulletText("%.*s  (%s of the gap)", static_cast<int>(name.size()), name.data(),
                      FormatDuration(e.overlap_ns).c_str());
  }
  if (!g.next_kernel.is_none()) {
    const std::string_view k = trace.str(trace.slices().name()[g.next_kernel.index()]);
    ImGui::TextDisabled("ended by %.*s", static_cast<int>(k.size()), k.data());
  }
  if (g.launch_delay_ns >= 0) ImGui::TextDisabled("launch delay %s", FormatDuration(g.launch_delay_ns).c_str());
}

}  // namespace stepline::ui
