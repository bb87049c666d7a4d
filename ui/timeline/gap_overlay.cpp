// GapOverlay: folding gaps into pixel items, shading and tooltips.
#include "ui/timeline/gap_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "model/sl_assert.h"
#include "ui/analysis_format.h"
#include "ui/theme.h"
#include "ui/timeline/gallop.h"
#include "ui/timeline/sampled_search.h"
#include "ui/timeline/time_ruler.h"

namespace stepline::ui {

namespace {

// Appends one item per pixel column that run [first, end) of `index` touches
// (merging columns wholly inside one gap). Column c is [c, c + 1) px, i.e.
// view-relative ns [c, c + 1) / px_per_ns; times stay relative doubles so
// sub-ns columns (deep zoom) and epoch-sized timestamps both keep precision.
void AppendColumns(const GapIndex& index, const Viewport& viewport, uint32_t first, uint32_t end,
                   std::vector<GapOverlayItem>* out) {
  const double px_per_ns = viewport.px_per_ns();
  const double ns_per_px = 1.0 / px_per_ns;
  auto rel = [&](TimeNs t) { return static_cast<double>(t - viewport.visible.start_ns); };
  const double columns = std::ceil(viewport.width_px);
  const double c_begin = std::max(0.0, std::floor(rel(index.start_ns(first)) * px_per_ns));
  const double c_end = std::min(columns, std::ceil(rel(index.end_ns(end - 1)) * px_per_ns));
  auto start_of = [&](size_t pos) { return index.start_ns(pos); };
  size_t from = first;
  for (double c = c_begin; c < c_end; ++c) {
    // The last column may stick out of the view; only its part in view counts
    // (gaps starting past the view's end are not in the run).
    const double t0 = c * ns_per_px, t1 = std::min(c + 1, viewport.width_px) * ns_per_px;
    const size_t lo = GallopPartition(from, end, [&](size_t pos) { return rel(index.end_ns(pos)) <= t0; });
    const size_t hi =
        SampledPartition(index.start_samples(), lo, end, start_of, [&](TimeNs start) { return rel(start) < t1; });
    // The next column's search starts at this one's last gap: every earlier
    // gap ended before that one started, so before the next column. One or
    // two probes then, in memory just read, instead of a gallop over this
    // column's gaps.
    from = hi > lo ? hi - 1 : lo;
    if (lo == hi) continue;
    auto clipped = [&](size_t pos) {
      return std::min(rel(index.end_ns(pos)), t1) - std::max(rel(index.start_ns(pos)), t0);
    };
    // Only the two end gaps can be cut by the column's edges.
    const double idle = static_cast<double>(index.IdleNs(lo, hi)) - std::max(0.0, t0 - rel(index.start_ns(lo))) -
                        std::max(0.0, rel(index.end_ns(hi - 1)) - t1);
    if (idle <= 0) continue;
    size_t best = lo;
    double best_ns = clipped(lo);
    if (hi - lo > 2) {
      const uint32_t inner = index.Longest(lo + 1, hi - 1);
      if (const double ns = clipped(inner); ns > best_ns) best = inner, best_ns = ns;
    }
    if (hi - lo > 1) {
      if (const double ns = clipped(hi - 1); ns > best_ns) best = hi - 1, best_ns = ns;
    }
    const float fraction = static_cast<float>(std::min(1.0, idle / (t1 - t0)));
    const float x0 = static_cast<float>(c);
    const uint32_t gap = index.gap_id(best);
    if (!out->empty() && fraction == 1.f && out->back().idle_fraction == 1.f && out->back().gap == gap &&
        out->back().x1_px == x0) {
      out->back().x1_px = x0 + 1;  // still inside the same gap
      continue;
    }
    out->push_back({x0, x0 + 1, gap, static_cast<uint32_t>(hi - lo), fraction, index.cause(best)});
  }
}

}  // namespace

void BuildGapOverlay(const GapIndex& index, uint32_t device, const Viewport& viewport, float min_px,
                     std::vector<GapOverlayItem>* out) {
  SL_ASSERT(min_px >= 1 && "BuildGapOverlay: runs closer than a pixel would share columns");
  out->clear();
  auto [k, end] = index.InRange(device, viewport.visible);
  const float width = static_cast<float>(viewport.width_px);
  auto x0_at = [&](TimeNs start) { return std::max(-1.f, static_cast<float>(viewport.TimeToX(start))); };
  auto x0_of = [&](size_t pos) { return x0_at(index.start_ns(pos)); };
  auto x1_of = [&](size_t pos) { return std::min(width + 1, static_cast<float>(viewport.TimeToX(index.end_ns(pos)))); };
  while (k < end) {
    const uint32_t first = k;
    const float x0 = x0_of(k);
    float x1 = x1_of(k);
    ++k;
    // Every gap starting less than min_px after the run's end joins it. Gaps
    // are disjoint and in order, so the last one joined has the largest end.
    // A gap joining in one round started at or after the previous round's
    // limit, so every two rounds move the end by min_px or end the run: a
    // device costs O(width / min_px) searches however many gaps are in view.
    for (;;) {
      const float limit = x1 + min_px;
      const auto j = static_cast<uint32_t>(SampledPartition(
          index.start_samples(), k, end, [&](size_t pos) { return index.start_ns(pos); },
          [&](TimeNs start) { return x0_at(start) < limit; }));
      if (j == k) break;
      x1 = std::max(x1, x1_of(j - 1));
      k = j;
    }
    if (k - first == 1 && x1 - x0 >= 1) {  // one gap, wide enough to show as itself: wholly idle
      out->push_back({x0, x1, index.gap_id(first), 1, 1.f, index.cause(first)});
    } else {
      AppendColumns(index, viewport, first, k, out);
    }
  }
}

int GapItemAtX(const std::vector<GapOverlayItem>& items, float x_px) {
  auto it = std::partition_point(items.begin(), items.end(),
                                 [&](const GapOverlayItem& g) { return std::max(g.x1_px, g.x0_px + 1) <= x_px; });
  if (it == items.end() || it->x0_px > x_px) return -1;
  return static_cast<int>(it - items.begin());
}

const GapIndex& GapOverlayFilter::Get(const std::shared_ptr<const TimelineData>& data, uint32_t cause_mask,
                                      DurNs min_dur_ns) {
  const bool everything = (cause_mask & GapIndex::kAllCauses) == GapIndex::kAllCauses && min_dur_ns <= 0;
  if (everything) return data->gap_index;
  if (built_for_.lock() != data || cause_mask != cause_mask_ || min_dur_ns != min_dur_ns_) {
    filtered_ = GapIndex(data->analysis, min_dur_ns, cause_mask);
    built_for_ = data;
    cause_mask_ = cause_mask;
    min_dur_ns_ = min_dur_ns;
  }
  return filtered_;
}

void DrawGapShading(ImDrawList* dl, const std::vector<GapOverlayItem>& items, float content_x0, float y0, float y1,
                    int32_t selected_gap) {
  const float row_h = y1 - y0;
  bool has_selected = false;
  float selected_x0 = 0, selected_x1 = 0;  // extent of the selected gap's items
  for (const GapOverlayItem& g : items) {
    const uint32_t color = (CauseColor(g.cause) & 0x00ffffffu) | (uint32_t{theme::kGapShadeAlpha} << 24);
    // Height, not alpha, carries the idle share: a band is read as a fraction
    // of its row far more exactly than a faint wash is.
    const float band = std::min(row_h, std::max(theme::kGapShadeMinHeight, row_h * g.idle_fraction));
    const float x0 = content_x0 + g.x0_px, x1 = content_x0 + std::max(g.x1_px, g.x0_px + 1);
    dl->AddRectFilled(ImVec2(x0, y1 - band), ImVec2(x1, y1), color);
    if (static_cast<int32_t>(g.gap) != selected_gap) continue;
    selected_x0 = has_selected ? std::min(selected_x0, x0) : x0;
    selected_x1 = has_selected ? std::max(selected_x1, x1) : x1;
    has_selected = true;
  }
  if (has_selected) {
    dl->AddRect(ImVec2(selected_x0, y0), ImVec2(selected_x1, y1), theme::kGapSelected, 0.f, 0, 2.f);
  }
}

void GapTooltip(const Trace& trace, const AnalysisData& analysis, uint32_t gap, uint32_t folded, float idle_fraction) {
  const analysis::IdleGap& g = analysis.gaps[gap];
  const analysis::Report& r = analysis.report;
  ColorSwatch(CauseColor(g.cause));
  ImGui::Text("GPU idle: %s, %s", CauseLabel(g.cause), FormatDuration(g.dur_ns()).c_str());
  if (folded > 1) ImGui::TextDisabled("(the most idle of %u gaps here; zoom in to see them)", folded);
  if (idle_fraction < 1.f) ImGui::TextDisabled("%.0f%% of this pixel is idle", 100.0 * idle_fraction);
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
