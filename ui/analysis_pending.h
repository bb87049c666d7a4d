// What a panel that shows the analysis draws while the analysis still runs
// on its worker thread (the timeline is already up).
#pragma once

#include "ui/view_state.h"

namespace stepline::ui {

// True while state's trace is shown without its analysis yet.
inline bool AnalysisPending(const ViewState& state) { return state.data && !state.data->analysis_ready; }

// "Analysing the trace..." with what is coming, in the current window.
void DrawAnalysisPending(const char* what);

}  // namespace stepline::ui
