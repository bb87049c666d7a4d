// Findings: the report's diagnosis as numbered, checkable claims. Each has a
// stable id (F1, F2, ... in rule order, for one trace and one set of
// options), the rule that fired and its threshold, the measured value, and
// evidence: time ranges in the trace, with the slice that shows each one
// when there is one, so `stepline view FILE --finding F1` can open it.
//
// The rules, in order (shares are of the primary device's step-time
// breakdown, summed over the steps, as the report's breakdown table):
//   idle_<cause>  an idle category of the step-time breakdown (idle_input,
//                 idle_sync, idle_launch, idle_host_compute, idle_other)
//                 >= kIdleCauseSharePercent; evidence: its longest gaps.
//   low_gpu_busy  kernel time < kLowBusyPercent of step time; evidence: the
//                 longest gaps of any cause.
//   outlier_step  a step longer than the outlier threshold (outlier_steps.h);
//                 evidence: the step.
#pragma once

#include <string>
#include <vector>

#include "model/analysis/report.h"
#include "model/ids.h"

namespace stepline::analysis {

inline constexpr double kIdleCauseSharePercent = 5.0;
inline constexpr double kLowBusyPercent = 50.0;
inline constexpr size_t kEvidencePerFinding = 5;

struct FindingEvidence {
  std::string what;           // "gap before <kernel>", "step <name>"
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  SliceId slice = SliceId::None();  // the kernel after a gap, the step's slice; None when no slice shows it
};

struct Finding {
  std::string id;         // "F1"
  std::string rule;       // "idle_input", "low_gpu_busy", "outlier_step"
  std::string title;      // one sentence
  std::string threshold;  // the rule's condition, e.g. ">= 5% of step time"
  double value = 0;       // the measured share (percent) or excess (ns)
  std::string value_text;  // the value with its unit
  std::vector<FindingEvidence> evidence;
};

std::vector<Finding> ComputeFindings(const Trace& trace, const Report& report);

}  // namespace stepline::analysis
