// Steps from annotation ranges (NVTX, roctx): training loops mark each
// iteration with a range ("train_step", "iteration 12", "ProfilerStep#3").
// The repeated top-level range named like a step becomes a "Steps" row
// (kGpuDerived, category = the source, e.g. "nvtx"), the same mechanism the
// XSpace loader uses, so the analysis reads these steps like XProf's.
#pragma once

#include <string_view>
#include <vector>

#include "loaders/trace_builder.h"

namespace stepline::loaders {

struct AnnotationRange {
  TrackId track;  // the host thread it was recorded on
  TimeNs start_ns = 0;
  DurNs dur_ns = 0;
  StringId name;
};

// True for names a step range is given: step, iteration, train_step,
// ProfilerStep#N, ... (case-insensitive, with or without a trailing number).
bool IsStepWordName(std::string_view name);
// True for "<identifier> <number>" names ("epoch_3_batch 12", "fwd 7"): a
// numbered range that may be a step when no step-word range exists. Names with
// ',', '=', ':' (PyTorch emit_nvtx's "aten::mul, op_id = 12") are not.
bool IsNumberedName(std::string_view name);

// Picks the step ranges among `ranges` (any order; only ranges not nested in
// another range of the same thread count) and adds them as one "Steps" row on
// the process of their thread. Step-word names win over numbered names; the
// largest group of one name (trailing number removed) on one thread wins, and
// it needs at least two ranges. Steps never overlap. A name without a
// trailing number gets the step's ordinal appended ("train_step 3"), so steps
// stay distinct. Returns the number of steps added.
size_t AddStepsFromRanges(TraceBuilder* builder, std::vector<AnnotationRange> ranges, std::string_view source);

}  // namespace stepline::loaders
