// Opening a finding in the window; see finding_focus.h.
#include "app/gui/finding_focus.h"

#include <algorithm>

#include "model/analysis/findings.h"
#include "ui/timeline/timeline_data.h"

namespace stepline::app {

FindingFocus FocusFinding(const std::string& id, ui::ViewState* state, std::string* error) {
  if (!state->data || !state->data->analysis_ready) return FindingFocus::kWaiting;
  const auto findings = analysis::ComputeFindings(*state->data->trace, state->data->analysis.report);
  const auto it = std::find_if(findings.begin(), findings.end(), [&](const analysis::Finding& f) { return f.id == id; });
  if (it == findings.end()) {
    *error = "no finding " + id + " (this trace has " + std::to_string(findings.size()) + ")";
    return FindingFocus::kFailed;
  }
  if (it->evidence.empty()) {
    *error = "finding " + id + " has no evidence to show";
    return FindingFocus::kFailed;
  }
  const analysis::FindingEvidence& e = it->evidence.front();
  if (!e.slice.is_none()) state->SelectAndReveal(e.slice);
  // The evidence with a margin either side, so what comes before and after shows.
  const DurNs margin = std::max<DurNs>(e.dur_ns / 4, 1000);
  state->requests.fit = TimeRange{e.start_ns - margin, e.start_ns + e.dur_ns + margin};
  return FindingFocus::kShown;
}

}  // namespace stepline::app
