// A run kept for later comparison; see saved_run.h.
#include "model/analysis/saved_run.h"

#include "model/string_pool.h"

namespace stepline::analysis {

SavedRun MakeSavedRun(const CompareRun& run) {
  SavedRun saved;
  saved.side = MakeCompareSide(run);
  for (const OpStat& op : run.analysis.ops.ops) {
    saved.ops.push_back({std::string(run.trace.strings().Get(op.name)), op.kind, op.count, op.total_ns});
  }
  saved.memory = MemoryPeaks(run.analysis);
  return saved;
}

Comparison CompareSaved(const SavedRun& a, const CompareRun& b, const CompareOptions& options) {
  Comparison c;
  c.a = a.side;
  c.b = MakeCompareSide(b);
  c.summary = BuildSummaryRows(c.a, c.b);
  AddMemorySummaryRows(a.memory, MemoryPeaks(b.analysis), &c.summary);
  // DiffOps reads names through a pool: give the saved names one.
  StringPool names;
  std::vector<OpStat> a_ops;
  a_ops.reserve(a.ops.size());
  for (const SavedOp& op : a.ops) {
    OpStat stat;
    stat.name = names.Intern(op.name);
    stat.kind = op.kind;
    stat.count = op.count;
    stat.total_ns = op.total_ns;
    a_ops.push_back(stat);
  }
  c.ops = DiffOps(names, a_ops, c.a.steps, b.trace.strings(), b.analysis.ops.ops, c.b.steps, options.normalize_names);
  // A's ids index the pool above, which ends here.
  for (OpDiffRow& row : c.ops) row.a_names.clear();
  c.names_normalized = options.normalize_names;
  c.verdict = ComputeStepVerdict(c.a.full_step_dur_ns, c.b.full_step_dur_ns);
  return c;
}

}  // namespace stepline::analysis
