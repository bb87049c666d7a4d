// The headline figures a screenshot drew, as text (headline_dump.h).
#include "app/cli/headline_dump.h"

#include <fstream>
#include <set>
#include <tuple>

namespace stepline::app {

const char* HeadlineFigureKey(stepline::analysis::HeadlineFigure figure) {
  using stepline::analysis::HeadlineFigure;
  switch (figure) {
    case HeadlineFigure::kSteps: return "steps";
    case HeadlineFigure::kMeanStep: return "mean_step";
    case HeadlineFigure::kDeviceBusy: return "device_busy";
    case HeadlineFigure::kDeviceIdle: return "device_idle";
    case HeadlineFigure::kTopIdleCause: return "top_idle_cause";
    case HeadlineFigure::kMostBlamed: return "most_blamed";
    case HeadlineFigure::kMemoryPeak: return "memory_peak";
    case HeadlineFigure::kStepMean: return "step_mean";
  }
  return "?";
}

bool WriteHeadlineDump(const std::string& path, const std::vector<ui::DrawnHeadline>& drawn, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  std::set<std::tuple<std::string, std::string, int, std::string>> seen;
  for (const ui::DrawnHeadline& d : drawn) {
    if (!seen.insert({d.view, d.subject, static_cast<int>(d.figure), d.text}).second) continue;
    out << d.view << '\t' << d.subject << '\t' << HeadlineFigureKey(d.figure) << '\t' << d.text << '\n';
  }
  out.flush();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace stepline::app
