// DrawMemoryRow: the per-pixel columns of a MemorySeries on the timeline.
#include "ui/memory/memory_row.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "model/analysis/memory_analysis.h"
#include "ui/theme.h"
#include "ui/timeline/time_ruler.h"
#include "ui/tooltip.h"

namespace stepline::ui {
namespace {

constexpr uint32_t kReservedLine = theme::Rgba(240, 180, 90);
const uint32_t& kPeakMark = theme::kMemoryPeakMark;  // follows the theme
constexpr uint32_t kOomMark = theme::Rgba(230, 60, 50);

}  // namespace

void DrawMemoryRow(const MemorySeries& series, const Viewport& viewport, ImDrawList* dl, float x0, float y0,
                   float width, float height, bool mouse_over) {
  if (series.ts.empty()) return;
  const int w = static_cast<int>(width);
  const double top = series.top > 0 ? series.top : 1;
  const float h = height - 4, base = y0 + 2 + h;
  auto y_of = [&](float v) { return base - h * static_cast<float>(std::clamp(v / top, 0.0, 1.0)); };
  std::vector<StepColumnRun> runs;  // the same pixel columns for both series
  FindStepColumnRuns(series.ts, series.ts_samples, viewport, w, &runs);
  std::vector<float> columns;
  FillStepColumns(runs, series.allocated, series.allocated_max, w, &columns);
  for (int c = 0; c < w; ++c) {
    if (std::isnan(columns[c])) continue;
    const float x = x0 + static_cast<float>(c);
    dl->AddRectFilled(ImVec2(x, y_of(columns[c])), ImVec2(x + 1, base), theme::kCounterFill);
  }
  if (!series.reserved.empty()) {
    FillStepColumns(runs, series.reserved, series.reserved_max, w, &columns);
    for (int c = 1; c < w; ++c) {
      if (std::isnan(columns[c]) || std::isnan(columns[c - 1])) continue;
      const float x = x0 + static_cast<float>(c);
      dl->AddLine(ImVec2(x - 1, y_of(columns[c - 1])), ImVec2(x, y_of(columns[c])), kReservedLine, 1.f);
    }
  }
  // The peak: a small downward triangle above its column.
  if (viewport.visible.Contains(series.peak_ts)) {
    const float x = x0 + static_cast<float>(viewport.TimeToX(series.peak_ts));
    const float y = y_of(static_cast<float>(series.peak));
    dl->AddTriangleFilled(ImVec2(x - 4, y - 7), ImVec2(x + 4, y - 7), ImVec2(x, y - 1), kPeakMark);
  }
  for (TimeNs t : series.ooms) {
    if (!viewport.visible.Contains(t)) continue;
    const float x = x0 + static_cast<float>(viewport.TimeToX(t));
    dl->AddLine(ImVec2(x, y0 + 1), ImVec2(x, y0 + height - 1), kOomMark, 2.f);
  }
  const std::string scale = "max " + analysis::FormatMemoryBytes(top) + (series.relative ? " (relative)" : "");
  dl->AddText(ImVec2(x0 + width - ImGui::CalcTextSize(scale.c_str()).x - 6, y0 + 2), theme::kTrackSubText,
              scale.c_str());
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (!mouse_over || mouse.x < x0 || mouse.x >= x0 + width || mouse.y < y0 || mouse.y >= y0 + height) return;
  const TimeNs t = viewport.XToTime(mouse.x - x0);
  const double allocated = SeriesValueAt(series.ts, series.allocated, t);
  if (std::isnan(allocated)) return;
  std::string text = series.name + " memory: " + analysis::FormatMemoryBytes(allocated) + " allocated";
  if (!series.reserved.empty()) {
    text += ", " + analysis::FormatMemoryBytes(SeriesValueAt(series.ts, series.reserved, t)) + " reserved";
  }
  if (series.relative) text += "\n(relative to the capture start: only allocation sizes were recorded)";
  text += "\npeak " + analysis::FormatMemoryBytes(series.peak);
  WrappedTooltip("%s", text.c_str());
}

}  // namespace stepline::ui
