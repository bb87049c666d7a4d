// Highlighting an ops-diff row in a run's timeline: the row's (name, kind)
// maps back to the run's own op names (several raw names when the comparison
// normalized them, e.g. aten::add_3 and aten::add_7), and every slice with
// one of those names on the row's side (host or GPU) is highlighted.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "model/analysis/op_stats.h"
#include "ui/analysis_data.h"
#include "ui/view_state.h"

namespace stepline::ui {

// The string ids of `run`'s ops (report.ops) of kind `kind` whose name is
// `row_name`, or normalizes to it when `normalized`.
std::vector<StringId> MatchDiffRowNames(const AnalysisData& run, std::string_view row_name, analysis::OpKind kind,
                                        bool normalized);
// Highlights every slice named one of `names` on the host (on_device false)
// or GPU side, like ViewState::HighlightOp for several names; empty clears.
void HighlightOpNames(ViewState& state, std::span<const StringId> names, bool on_device);

}  // namespace stepline::ui
