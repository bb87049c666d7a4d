// ViewerSession: the peak and batch size each trace is analysed with, and
// the Efficiency settings' Apply (see viewer_session.h).
#include <algorithm>

#include "app/gui/viewer_session.h"
#include "ui/input/test_events.h"

namespace stepline::app {

void ViewerSession::SetEfficiencySources(EfficiencyStore store, analysis::EfficiencyOptions command_line,
                                         std::vector<std::string> paths) {
  efficiency_store_ = std::move(store);
  command_line_efficiency_ = std::move(command_line);
  command_line_paths_ = std::move(paths);
}

analysis::EfficiencyOptions ViewerSession::EfficiencyFor(const std::string& path) const {
  if (auto it = applied_efficiency_.find(path); it != applied_efficiency_.end()) return it->second;
  const bool named = std::find(command_line_paths_.begin(), command_line_paths_.end(), path) != command_line_paths_.end();
  // The command line's options apply whole (an option left out is its default),
  // as they do for `stepline report`.
  if (named && command_line_efficiency_ != analysis::EfficiencyOptions{}) return command_line_efficiency_;
  return efficiency_store_.Get(path);
}

void ViewerSession::Reanalyse(const analysis::EfficiencyOptions& options) {
  if (comparing_ || !state_.data || !state_.data->analysis_ready) return;
  applied_efficiency_[shown_path_] = options;
  std::string error;
  if (!efficiency_store_.Set(shown_path_, options, &error)) status_.notice = "Efficiency settings not kept: " + error;
  // The same trace and timeline indices, without an analysis until the new one is in:
  // the view keeps its zoom and selection, the panels say "Analysing...".
  auto pending = std::make_shared<const ui::TimelineData>(state_.data->trace, state_.data->indices);
  state_.data = pending;
  StartAnalysis(pending, shown_path_);
  ui::TestEvent("efficiency.reanalyse", "batch_size=" + std::to_string(options.batch_size));
}

}  // namespace stepline::app
