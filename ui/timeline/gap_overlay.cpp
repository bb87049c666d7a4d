// GapOverlay: folding gaps into pixel items, shading and tooltips.
#include "ui/timeline/gap_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/analysis_format.h"
#include "ui/theme.h"
#include "ui/timeline/gallop.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

void BuildGapOverlay(const GapIndex& index, uint32_t device, const Viewport& viewport, float min_px,
                     std::vector<GapOverlayItem>* out) {
  out->clear();
  auto [k, end] = index.InRange(device, viewport.visible);
  const float width = static_cast<float>(viewport.width_px);
  auto x0_of = [&](size_t pos) { return std::max(-1.f, static_cast<float>(viewport.TimeToX(index.start_ns(pos)))); };
  auto x1_of = [&](size_t pos) { return std::min(width + 1, static_cast<float>(viewport.TimeToX(index.end_ns(pos)))); };
  while (k < end) {
    const uint32_t first = k;
    const float x0 = x0_of(k);
    float x1 = x1_of(k);
    ++k;
    // Every gap starting less than min_px after the item's end joins it. Gaps
    // are disjoint and in order, so the last one joined has the largest end.
    // A gap joining in one round started at or after the previous round's
    // limit, so every two rounds move the end by min_px or end the item: a
    // device costs O(width / min_px) searches however many gaps are in view.
    for (;;) {
      const float limit = x1 + min_px;
      const auto j = static_cast<uint32_t>(GallopPartition(k, end, [&](size_t pos) { return x0_of(pos) < limit; }));
      if (j == k) break;
      x1 = std::max(x1, x1_of(j - 1));
      k = j;
    }
    const uint32_t longest = index.Longest(first, k);
    out->push_back({x0, x1, index.gap_id(longest), index.cause(longest), k - first});
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
