// The recorder and the single-value formatting of headline figures
// (headline_record.h).
#include "model/analysis/headline_record.h"

#include <algorithm>
#include <cmath>

namespace stepline::analysis {
namespace {

std::vector<HeadlineUse>* g_headline_sink = nullptr;

std::string Noted(std::string_view where, HeadlineFigure figure, std::string text) {
  if (g_headline_sink != nullptr) g_headline_sink->push_back(HeadlineUse{std::string(where), figure, text});
  return text;
}

}  // namespace

std::string_view HeadlineFigureKey(HeadlineFigure figure) {
  static constexpr std::string_view kKeys[kHeadlineFigureCount] = {
      "steps",       "mean_step",   "device_busy", "device_idle", "top_idle_cause",
      "most_blamed", "memory_peak", "step_mean",   "mfu",         "samples_per_s"};
  return kKeys[static_cast<size_t>(figure)];
}

void RecordHeadlineUses(std::vector<HeadlineUse>* sink) { g_headline_sink = sink; }

std::string HeadlineTextAt(std::string_view where, const Headline& h, HeadlineFigure figure) {
  return Noted(where, figure, HeadlineText(h, figure));
}

std::string HeadlineValueText(std::string_view where, HeadlineFigure figure, double value) {
  // A Headline holding just this value, so the text is HeadlineText's own.
  Headline h;
  switch (figure) {
    case HeadlineFigure::kSteps: h.steps = static_cast<size_t>(std::llround(std::max(value, 0.0))); break;
    case HeadlineFigure::kMeanStep:
    case HeadlineFigure::kStepMean:
      h.steps = h.summed_steps = 1;  // the mean alone
      h.mean_step_ns = std::llround(value);
      break;
    case HeadlineFigure::kDeviceBusy:
    case HeadlineFigure::kDeviceIdle:
      h.has_busy = true;
      h.busy_percent = figure == HeadlineFigure::kDeviceBusy ? value : 100.0 - value;
      break;
    case HeadlineFigure::kMemoryPeak:
      h.has_memory = true;
      h.memory_peak_bytes = std::llround(value);
      break;
    case HeadlineFigure::kMfu:
      h.has_mfu = value >= 0;
      h.mfu_percent = value;
      break;
    case HeadlineFigure::kSamplesPerS:
      h.has_samples = value >= 0;
      h.samples_per_s = value;
      break;
    case HeadlineFigure::kTopIdleCause:
    case HeadlineFigure::kMostBlamed: break;  // names, not values: HeadlineTextAt
  }
  return Noted(where, figure, HeadlineText(h, figure));
}

}  // namespace stepline::analysis
