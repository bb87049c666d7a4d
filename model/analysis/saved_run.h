// A run reduced to what `stepline diff` compares, so a baseline can be kept
// (`diff --save-baseline NAME`) and compared against later without its trace.
// The JSON form is app/output/baseline_json.h's; this is the model side.
#pragma once

#include <string>
#include <vector>

#include "model/analysis/compare.h"

namespace stepline::analysis {

// One row of the run's op table, its name resolved.
struct SavedOp {
  std::string name;
  OpKind kind = OpKind::kHostOp;
  uint64_t count = 0;
  DurNs total_ns = 0;
};

struct SavedRun {
  CompareSide side;
  std::vector<SavedOp> ops;  // as recorded (not normalized): the comparison normalizes both sides alike
  std::vector<MemoryPeak> memory;
};

SavedRun MakeSavedRun(const CompareRun& run);

// Compare(a, b) with A a saved run: the same rows and verdict as comparing
// the two traces.
Comparison CompareSaved(const SavedRun& a, const CompareRun& b, const CompareOptions& options = {});

}  // namespace stepline::analysis
