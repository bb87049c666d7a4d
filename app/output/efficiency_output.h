// The efficiency part of `stepline report`: the `efficiency`,
// `communication`, `launch_overhead` and `throughput` JSON objects, the
// per-step and per-op members, and the text section.
#pragma once

#include <iosfwd>
#include <string>

#include "model/analysis/report.h"

namespace stepline::app {

// Appends `,"efficiency":{...},"communication":{...},"launch_overhead":{...},"throughput":{...}`.
void AppendEfficiencyJson(const analysis::Report& report, std::string* out);
// A step's members: `,"flops":...,"mfu_percent":...` and the rest of StepEfficiency.
void AppendStepEfficiencyJson(const analysis::StepEfficiency& step, std::string* out);
// An op row's members: `,"flops":...,"achieved_tflops":...,"bound":...`.
void AppendOpEfficiencyJson(const analysis::ReportOp& op, std::string* out);
// "Efficiency" section of the text report.
void WriteEfficiencyText(const analysis::Report& report, std::ostream& out);

// Shared number forms (null / "-" when unknown, i.e. negative).
std::string EfficiencyJsonNumber(double v, int decimals);
std::string FlopsText(double flops);  // "1.23 TFLOP", "-" unknown

}  // namespace stepline::app
