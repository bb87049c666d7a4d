// StepSet: the training/inference steps of a trace and where they came from.
// ComputeSteps tries, in order: the TF/XSpace "Steps" rows; Kineto
// ProfilerStep#N annotations; JAX/TF step markers (a step_num arg, or a name
// starting train/test/TraceContext without '/', never a Python frame);
// --steps REGEX on top-level host slices. With none of these the whole
// GPU-active span is one step. Every marker of the chosen source is a step:
// overlapping markers get disjoint *windows* for the breakdown.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/serving_step_name.h"
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
  kSglang,         // SGLang's step[EXTEND|DECODE|MIXED|IDLE ...] annotations (serving_steps.h)
  kVllm,           // vLLM's execute_<n>_context_<c>(...)_generation_<g>(...) annotations
};
inline constexpr StepSource kLastStepSource = StepSource::kVllm;
std::string_view StepSourceName(StepSource s);  // "steps_row", "profiler_step", ...

// A step keeps its marker's recorded extent (start_ns, dur_ns: step time,
// step stats, outliers). Its *window* [start_ns, window_end_ns()) is the part
// the breakdown and gap attribution credit to it: the windows of a StepSet are
// disjoint and together cover the union of the steps exactly. A step's window
// ends where the next step begins when the two overlap (pipelined or rounded
// timestamps), else at the latest end of it and the steps before it.
struct Step {
  std::string name;
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  SliceId slice;  // the marker slice; None for kGpuActiveSpan
  DurNs window_dur_ns = 0;
  // What the step computes and its batch, from a serving engine's step name
  // (serving_steps.h); kTrain for a training-loop marker; -1 = not named.
  StepPhase phase = StepPhase::kNone;
  int64_t batch = -1;
  int64_t tokens = -1;
  TimeNs end_ns() const { return start_ns + dur_ns; }
  TimeNs window_end_ns() const { return start_ns + window_dur_ns; }
};

struct StepOptions {
  std::string steps_regex;  // ECMAScript, searched in the name; empty = not used
  // Prefer this device's "Steps" row; -1 = the host row, else the fullest row.
  int32_t device_id = -1;
};

struct StepSet {
  StepSource source = StepSource::kNone;
  std::vector<Step> steps;  // sorted by start (longer first); windows disjoint
  std::string error;        // e.g. an invalid regex (the regex source is then skipped)
  // Diagnostic steps_overlap: consecutive steps where the later one starts
  // before the earlier ones end, and the largest such overlap.
  uint32_t overlap_count = 0;
  DurNs max_overlap_ns = 0;
  // Why a source that matched was not used, e.g. a single `train` marker in a
  // trace of repeated kernels; "" none.
  std::string note;
  // The serving engine whose step names these are ("steps from sglang"),
  // whatever recorded them (Kineto annotations, NVTX, roctx); kNone otherwise.
  ServingEngine engine = ServingEngine::kNone;
};

StepSet ComputeSteps(const Trace& trace, const StepOptions& options = {});

// Sorts `steps` by (start, longer first), drops those of no duration, sets
// each window_dur_ns and the overlap diagnostic. ComputeSteps calls it; other
// step sources (XLA modules) should too.
void FinishSteps(std::vector<Step> steps, StepSet* set);

// One line for the overview and the text report: where the steps came from,
// e.g. "12 ProfilerStep#N annotations (profiler_step)".
std::string StepSourceSentence(const StepSet& set);

// A Python stack frame as Kineto names it: "file.py(62): func".
bool IsPythonFrameName(std::string_view name);

// The name rule of step markers: starts with train, test or TraceContext and
// contains none of / ( ) : . (so never a Python frame or a call signature);
// or starts with ProfilerStep#.
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
