// AnalysisData construction: one ComputeAnalysis, one ResolveReport.
#include "ui/analysis_data.h"

namespace stepline::ui {

AnalysisData ComputeAnalysisData(const Trace& trace, const std::atomic<bool>* cancel,
                                 const analysis::EfficiencyOptions& efficiency) {
  AnalysisData a;
  analysis::AnalysisOptions options;
  options.cancel = cancel;
  options.efficiency = efficiency;
  static_cast<analysis::TraceAnalysis&>(a) = analysis::ComputeAnalysis(trace, options);
  if (cancel != nullptr && cancel->load()) return a;
  a.report = analysis::ResolveReport(trace, a);
  return a;
}

SliceId ArrowSource(const analysis::IdleGap& g) {
  return !g.cause_events.empty() ? g.cause_events.front().slice : g.launch;
}

}  // namespace stepline::ui
