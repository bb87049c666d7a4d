// ResolveEfficiency: the efficiency figures onto the Report's rows (names,
// not ids), so every printed form reads them from one place.
#include "model/analysis/report.h"

namespace stepline::analysis {

void ResolveEfficiency(const Trace& trace, const TraceAnalysis& a, Report* report) {
  const EfficiencyAnalysis& e = a.efficiency;
  report->efficiency = e;
  report->efficiency.ops.clear();  // on the op rows instead
  report->efficiency.kernel_bound_names.clear();
  report->efficiency.kernel_bound.clear();
  for (const BoundTime& b : e.top_memory_bound) report->top_memory_bound.push_back(trace.str(b.name));
  for (size_t k = 0; k < report->steps.size() && k < e.steps.size(); ++k) report->steps[k].efficiency = e.steps[k];
  for (size_t i = 0; i < report->ops.size() && i < a.ops.ops.size(); ++i) {
    const OpStat& o = a.ops.ops[i];
    ReportOp& row = report->ops[i];
    if (o.kind == OpKind::kGraphReplay) continue;  // its nodes' rows carry their FLOPs
    const bool device = IsDeviceOpKind(o.kind);
    row.bound = device ? (o.collective ? OpBound::kUnknown : BoundOfKernelName(row.name)) : BoundOfOpName(row.name);
    if (const OpFlops* f = e.FindOp(o.name, device)) {
      row.flops = f->flops;
      row.achieved_tflops = f->achieved_tflops();
      row.intensity = f->intensity();
    }
  }
  for (size_t i = 0; i < report->kernels.size() && i < a.kernels.size(); ++i) {
    report->kernels[i].bound = BoundOfKernelName(report->kernels[i].name);
  }
}

}  // namespace stepline::analysis
