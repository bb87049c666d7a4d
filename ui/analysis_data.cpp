// AnalysisData construction: one ComputeAnalysis, one ResolveReport.
#include "ui/analysis_data.h"

namespace stepline::ui {

AnalysisData ComputeAnalysisData(const Trace& trace) {
  AnalysisData a;
  static_cast<analysis::TraceAnalysis&>(a) = analysis::ComputeAnalysis(trace);
  a.report = analysis::ResolveReport(trace, a);
  return a;
}

SliceId ArrowSource(const analysis::IdleGap& g) {
  return !g.cause_events.empty() ? g.cause_events.front().slice : g.launch;
}

}  // namespace stepline::ui
