// StepSet: the training/inference steps of a trace and where they came from.
// ComputeSteps tries, in order (issue #6): the TF/XSpace "Steps" rows; Kineto
// ProfilerStep#N annotations; JAX/TF step markers (a step_num arg, or a name
// starting train/test/TraceContext without '/'); --steps REGEX on top-level
// host slices. With none of these the whole GPU-active span is one step.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace stepline::analysis {

enum class StepSource : uint8_t {
  kNone = 0,       // no steps (no GPU activity and no markers)
  kStepsRow,       // kGpuDerived tracks named "Steps"
  kProfilerStep,   // Kineto ProfilerStep#N
  kStepMarkers,    // step_num / train* / test* / TraceContext*
  kRegex,          // StepOptions::steps_regex
  kGpuActiveSpan,  // first kernel start .. last kernel end, one step
  kNvtx,           // a Steps row the Nsight loader made from NVTX ranges (category "nvtx")
  kRoctx,          // a Steps row the rocprof loader made from roctx ranges (category "roctx")
  kXlaModule,      // executions of the device's top XLA module (xla_module_steps.h)
};
std::string_view StepSourceName(StepSource s);  // "steps_row", "profiler_step", ...

struct Step {
  std::string name;
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  SliceId slice;  // the marker slice; None for kGpuActiveSpan
  TimeNs end_ns() const { return start_ns + dur_ns; }
};

struct StepOptions {
  std::string steps_regex;  // ECMAScript, searched in the name; empty = not used
  // Prefer this device's "Steps" row; -1 = the host row, else the fullest row.
  int32_t device_id = -1;
};

struct StepSet {
  StepSource source = StepSource::kNone;
  std::vector<Step> steps;  // sorted by start, non-overlapping
  std::string error;        // e.g. an invalid regex (the regex source is then skipped)
};

StepSet ComputeSteps(const Trace& trace, const StepOptions& options = {});

// The name rule of step markers: starts with train, test or TraceContext and
// contains no '/'; or starts with ProfilerStep#.
bool IsStepMarkerName(std::string_view name);

// Answers "is this slice a step marker" (by name or a step_num arg), caching
// per name. Used to keep markers out of idle-gap blame.
class StepMarkerMatcher {
 public:
  explicit StepMarkerMatcher(const Trace& trace);
  bool IsMarker(SliceId slice);      // by name, or a step_num arg
  bool IsMarkerName(SliceId slice);  // by name only (no arg lookup)

 private:
  const Trace& trace_;
  StringId step_num_key_;
  std::vector<int8_t> by_name_;  // per StringId: -1 unknown, 0 no, 1 yes
};

}  // namespace stepline::analysis
