// Caption text; see caption.h.
#include "ui/caption.h"

#include <algorithm>

#include "model/analysis/headline.h"
#include "model/analysis/report.h"
#include "ui/headline_text.h"
#include "ui/notes/notes_overlay.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/viewport.h"

namespace stepline::ui {

namespace {

std::string StepPart(const ViewState& state, TimeRange view) {
  const auto& steps = state.data->analysis.report.steps;
  if (steps.empty()) return {};
  if (state.links.focused_step >= 0 && static_cast<size_t>(state.links.focused_step) < steps.size()) {
    return "step " + steps[state.links.focused_step].name;
  }
  size_t first = steps.size(), last = 0, n = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (steps[i].start_ns < view.end_ns && steps[i].start_ns + steps[i].dur_ns > view.start_ns) {
      first = std::min(first, i);
      last = i;
      ++n;
    }
  }
  if (n == 0) return "no step in view";
  if (n == steps.size() && n > 1) return "all " + std::to_string(n) + " steps";
  if (n == 1) return "step " + steps[first].name;
  return "steps " + steps[first].name + " - " + steps[last].name + " (" + std::to_string(n) + ")";
}

}  // namespace

std::string BuildCaption(const std::string& title, const ViewState& state, bool whole_trace) {
  std::string out = title.empty() ? "(untitled)" : title;
  const Trace* trace = state.trace();
  if (trace == nullptr) return out;
  const TimeRange span = trace->span();
  const TimeNs origin = span.start_ns;
  // The view's margins beyond the trace (fit-all pads it) are not data.
  const TimeRange v = whole_trace ? span : VisibleTraceRange(state.viewport, span);
  if (whole_trace) {
    out += "  |  whole trace (" + FormatDuration(span.duration_ns()) + ")";
  } else if (v.duration_ns() > 0) {
    out += "  |  view " + FormatDuration(v.start_ns - origin) + " - " + FormatDuration(v.end_ns - origin) + " (" +
           FormatDuration(v.duration_ns()) + ")";
  }
  if (const std::string step = StepPart(state, v); !step.empty()) out += "  |  " + step;
  // The run's device busy, a headline figure, as every view draws it.
  const analysis::Report& report = state.data->analysis.report;
  if (report.primary_device_index >= 0 && report.step_stats.total_ns > 0) {
    const analysis::Headline h = analysis::ComputeHeadline(report);
    out += "  |  " + analysis::HeadlineLabel(h, analysis::HeadlineFigure::kDeviceBusy) + " " +
           HeadlineFigureText("caption", h, analysis::HeadlineFigure::kDeviceBusy);
  }
  if (!whole_trace) out += NotesCaptionPart(state.notes, v);
  return out;
}

namespace {

std::string AlignedStepPart(const char* run, const analysis::CompareSide& side, int step) {
  if (step < 0 || static_cast<size_t>(step) >= side.step_names.size()) return std::string(run) + " trace start";
  return std::string(run) + " step " + std::to_string(step) + " (" + side.step_names[step] + ")";
}

std::string SignedDuration(DurNs ns) { return ns < 0 ? "-" + FormatDuration(-ns) : FormatDuration(ns); }

}  // namespace

std::string BuildCompareCaption(const std::string& title_a, const std::string& title_b, const analysis::Comparison& c,
                                int step_a, int step_b, TimeRange visible_a, TimeNs origin_a) {
  std::string out = "A: " + (title_a.empty() ? std::string("(untitled)") : title_a) +
                    "  vs  B: " + (title_b.empty() ? std::string("(untitled)") : title_b);
  out += "  |  aligned " + AlignedStepPart("A", c.a, step_a) + ", " + AlignedStepPart("B", c.b, step_b);
  if (visible_a.duration_ns() > 0) {
    const bool on_steps = step_a >= 0 || step_b >= 0;
    out += "  |  view " + SignedDuration(visible_a.start_ns - origin_a) + " - " +
           SignedDuration(visible_a.end_ns - origin_a) +
           (on_steps ? " from the aligned step starts (" : " from the trace starts (") +
           FormatDuration(visible_a.duration_ns()) + ")";
  }
  // The verdict of `stepline diff`, the same computation (step_verdict.h).
  out += "  |  verdict " + analysis::VerdictLine(c.verdict);
  return out;
}

}  // namespace stepline::ui
