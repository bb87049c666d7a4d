// The serving and critical-path parts of `stepline report`: each step's
// phase, batch, tokens and critical path; the per-phase figures and
// throughput; and the "Critical path" and "Phases" text sections.
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"phase":..,"batch":..,"tokens":..,"critical_path":{dur_ns,
// by_kind_ns, slices, top}` to one step's object.
void AppendStepDetailJson(const analysis::ReportStep& step, std::string* out);
// Appends `,"step_engine":..,"phases":[..],"throughput":{"tokens_per_s":{phase: x}},
// "critical_path":{dur_ns, by_kind_ns, top, sentence}`.
void AppendServingJson(const analysis::Report& report, std::string* out);
// {phase: tokens per second} of the phases whose steps name their tokens:
// `throughput.tokens_per_s`, beside the samples per second.
void AppendTokensPerSecondJson(const analysis::Report& report, std::string* out);
// "Phases" (serving traces only) and "Critical path" sections; nothing without steps.
void WriteStepDetailText(const analysis::Report& report, std::ostream& out);

}  // namespace stepline::app
