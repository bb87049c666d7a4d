// TimelinePanel::DrawRowGraphReplays: the extent of each CUDA / HIP graph
// replay (model/analysis/graph_replays.h) on the stream of its first node,
// drawn over the row's slices: a faint tint, a bracket along the row's top,
// and a `graph N` tag when there is room. Replays closer than a pixel merge, so the
// work per frame follows pixels, not replays.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "ui/analysis_data.h"
#include "ui/theme.h"
#include "ui/timeline/timeline_panel.h"

namespace stepline::ui {
namespace {

inline constexpr uint32_t kReplayLine = theme::Rgba(161, 110, 88, 255);  // theme::kCauseGraph, opaque
inline constexpr uint32_t kReplayBand = theme::Rgba(161, 110, 88, 30);
inline constexpr uint32_t kReplayText = theme::Rgba(255, 255, 255, 255);
inline constexpr float kReplayLabelMinPx = 70.f;  // a replay this wide gets "graph N"

}  // namespace

void TimelinePanel::DrawRowGraphReplays(const ViewState& state, ImDrawList* dl, const LayoutRow& row, float y0,
                                        const Rect& content) {
  if (!state.data->analysis_ready || row.kind != RowKind::kSliceTrack) return;
  const analysis::GraphReplays& graphs = state.data->analysis.graphs;
  if (graphs.empty()) return;
  const TimeRange visible = state.viewport.visible;
  auto x_of = [&](TimeNs t) { return content.x0 + static_cast<float>(state.viewport.TimeToX(t)); };
  // Replays are sorted by start: the first that can reach the view starts at
  // most the longest replay before it.
  const TimeNs from = visible.start_ns - graphs.max_replay_ns;
  auto it = std::lower_bound(graphs.replays.begin(), graphs.replays.end(), from,
                             [](const analysis::GraphReplay& r, TimeNs t) { return r.start_ns < t; });
  const float s = Scale();
  const float y_line = y0 + 1.5f * s, tick = std::min(row.height - 2 * s, 6.f * s);
  float run_x0 = 0, run_x1 = -1;
  int64_t run_graph = -1;
  auto flush = [&] {
    if (run_x1 < run_x0) return;
    const float x1 = std::max(run_x1, run_x0 + 1.f);
    dl->AddRectFilled(ImVec2(run_x0, y0), ImVec2(x1, y0 + row.height), kReplayBand);
    dl->AddLine(ImVec2(run_x0, y_line), ImVec2(x1, y_line), kReplayLine, 2.f * s);
    dl->AddLine(ImVec2(run_x0, y0), ImVec2(run_x0, y0 + tick), kReplayLine, 1.5f * s);
    dl->AddLine(ImVec2(x1, y0), ImVec2(x1, y0 + tick), kReplayLine, 1.5f * s);
    if (run_graph >= 0 && x1 - run_x0 >= kReplayLabelMinPx * s) {
      const std::string label = "graph " + std::to_string(run_graph);
      const ImVec2 size = ImGui::CalcTextSize(label.c_str());
      const ImVec2 at(run_x0 + 3 * s, y0 + (row.height - size.y) / 2);
      dl->AddRectFilled(ImVec2(at.x - 2 * s, at.y), ImVec2(at.x + size.x + 2 * s, at.y + size.y), kReplayLine, 3 * s);
      dl->AddText(at, kReplayText, label.c_str());
    }
  };
  for (; it != graphs.replays.end() && it->start_ns < visible.end_ns; ++it) {
    if (it->stream != row.track || it->end_ns <= visible.start_ns) continue;
    const float x0 = std::max(content.x0, x_of(it->start_ns));
    const float x1 = std::min(content.x1, x_of(it->end_ns));
    if (x0 <= run_x1 + 1.f) {  // within a pixel of the run: one mark
      run_x1 = std::max(run_x1, x1);
      if (run_graph != it->graph_id) run_graph = -1;
      continue;
    }
    flush();
    run_x0 = x0;
    run_x1 = x1;
    run_graph = it->graph_id;
  }
  flush();
}

}  // namespace stepline::ui
