// The graph-replay part of `stepline report --json`: the `graph_replays`
// array (one entry per CUDA / HIP graph replay, model/analysis/graph_replays.h).
#pragma once

#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"graph_replays":[{"graph_id":..,"graph_id_recorded":..,"start_ns":..,
// "dur_ns":..,"nodes":..,"node_ns":..,"kernel_ns":..},...]` (empty without graphs).
void AppendGraphReplaysJson(const analysis::Report& report, std::string* out);

}  // namespace stepline::app
