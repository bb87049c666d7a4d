// OverviewPanel: the first page after loading: summary cards, the
// recommendations as sentences, the stacked step-time chart and the chart of
// idle time by cause. Reads data->analysis; owns only its chart scratch.
#pragma once

#include "ui/step_chart.h"
#include "ui/view_state.h"

namespace stepline::ui {

class OverviewPanel {
 public:
  void Draw(ViewState& state);

 private:
  void DrawCards(ViewState& state);
  void DrawRecommendations(const ViewState& state);
  void DrawCauseChart(ViewState& state);
  StepChart step_chart_;
};

// The idle cause with the most time in `by_cause`; kOther with 0 when all are 0.
analysis::IdleCause TopCause(const analysis::CauseNs& by_cause);

}  // namespace stepline::ui
