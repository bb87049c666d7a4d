// The two printed forms of an analysis::Comparison for `stepline diff`: the
// --json object (keys in docs/cli.md, "stepline diff") and the text summary.
// Pure formatting: no file system access, no analysis.
#pragma once

#include <cstddef>
#include <iosfwd>

#include "model/analysis/compare.h"

namespace stepline::app {

// Writes exactly one JSON object and a newline: `a`, `b`, `breakdown`,
// `idle_by_cause`, `ops` (the first `max_ops` rows of Comparison::ops, which
// are sorted by |delta|). Times are integer ns; per-step deltas and
// percentages are decimals.
void WriteDiffJson(const analysis::Comparison& c, size_t max_ops, std::ostream& out);

// The readable summary: both runs, the summary table (A, B, delta, delta %,
// better/worse), and the first `max_ops` op rows.
void WriteDiffText(const analysis::Comparison& c, size_t max_ops, std::ostream& out);

}  // namespace stepline::app
