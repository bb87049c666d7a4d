// OverviewPanel: the first page after loading: summary cards, the
// recommendations as sentences, the stacked step-time chart and the chart of
// idle time by cause. Reads data->analysis; owns only its chart scratch.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ui/panel_capture.h"
#include "ui/step_chart.h"
#include "ui/table_export.h"
#include "ui/view_state.h"

namespace stepline::ui {

class OverviewPanel {
 public:
  // `fill`: the step chart grows to fill the height the rest leaves (a
  // picture of the overview alone); else it has its fixed height.
  void Draw(ViewState& state, bool fill = false);
  // Right-click items: the step chart as PNG (the rectangle it had in the
  // last frame) or SVG, its steps as TSV / CSV.
  void MenuItems(const ViewState& state, std::optional<PanelShot>* shot, std::vector<ExportRequest>* exports);

 private:
  void DrawCards(ViewState& state);
  void DrawRecommendations(const ViewState& state);
  void DrawCauseChart(ViewState& state);
  float CauseChartHeight(const ViewState& state) const;
  StepChart step_chart_;
  std::optional<PanelShot> step_chart_shot_;  // the chart with its title and legend, last frame
};

// The idle cause with the most time in `by_cause`; kOther with 0 when all are 0.
analysis::IdleCause TopCause(const analysis::CauseNs& by_cause);

// What the "GPU idle time by cause" chart and the top-cause card show, for the
// primary device: with steps, its no-kernel time inside them (the step chart's
// figures, so the two agree); without, its gaps from first to last kernel.
struct IdleByCause {
  analysis::CauseNs ns{};
  bool in_steps = false;
  std::string title;  // "GPU idle time by cause, inside steps (GPU 0)"
};
IdleByCause ChartIdleByCause(const analysis::Report& report);

}  // namespace stepline::ui
