// The caption under a saved picture, so a screenshot in a report says what
// it shows: the trace file(s), the visible time range (from the trace's first
// event) and the step in view. Pure text; MainView draws it as a strip.
#pragma once

#include <string>

#include "model/analysis/compare.h"
#include "ui/view_state.h"

namespace stepline::ui {

// "run.json.gz  |  view 12.00 ms - 48.00 ms (36.00 ms)  |  step ProfilerStep#3";
// the view is clipped to the trace's span; notes in view are named at the end
// ("  |  notes: slow input; step 7"), see ui/notes/notes_overlay.h.
// The step part names the focused step, else the steps the view overlaps
// ("steps A - B (n)", "all n steps"); it is left out when there are none.
// `whole_trace`: the picture covers the whole trace whatever the view (a
// table of the whole run): the range is the trace's, the steps all of them.
std::string BuildCaption(const std::string& title, const ViewState& state, bool whole_trace = false);

// The compare view's caption: "A: a.json  vs  B: b.json  |  A step 2
// (ProfilerStep#3), B step 2 (ProfilerStep#3)  |  view -50 µs - 1.200 ms
// from the aligned step starts (1.250 ms)". `step_a` / `step_b` are the
// aligned steps (-1: that run has none, aligned on its trace start);
// `visible_a` is A's visible window and `origin_a` its aligned step's start
// (B shows the same window relative to its own).
std::string BuildCompareCaption(const std::string& title_a, const std::string& title_b, const analysis::Comparison& c,
                                int step_a, int step_b, TimeRange visible_a, TimeNs origin_a);

}  // namespace stepline::ui
