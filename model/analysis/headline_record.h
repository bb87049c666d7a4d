// Headline figures outside the window: the outputs (`report` text and CSV,
// `diff` text and JSON, the SQLite export, the MCP summary) format each
// figure through HeadlineTextAt / HeadlineValueText, which use the one
// formatter of headline.h and note what was written where, so a test can
// check that no output formats a headline figure on its own (one once
// printed "1.07 GB" beside the window's "1.1 GB" for the same peak).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/analysis/headline.h"

namespace stepline::analysis {

struct HeadlineUse {
  std::string where;  // "report text", "diff json", ...
  HeadlineFigure figure = HeadlineFigure::kSteps;
  std::string text;
};

// Tests: every later HeadlineTextAt / HeadlineValueText call appends to
// `sink`; null stops. Not thread-safe: a test records one output at a time.
void RecordHeadlineUses(std::vector<HeadlineUse>* sink);

// "steps", "mean_step", "device_busy", "device_idle", "top_idle_cause",
// "most_blamed", "memory_peak", "step_mean", "mfu", "samples_per_s": the figure's key in tables (headline.csv,
// the SQLite export's headline table, diff JSON).
std::string_view HeadlineFigureKey(HeadlineFigure figure);

// HeadlineText(h, figure), noted under `where`.
std::string HeadlineTextAt(std::string_view where, const Headline& h, HeadlineFigure figure);

// One value formatted as its headline figure is, for rows that hold a
// figure without the rest of a Headline (a diff's A and B columns, every
// memory pool's peak): kSteps a count, kMeanStep a duration in ns (the
// mean alone), kDeviceBusy / kDeviceIdle a percent, kMemoryPeak bytes, kMfu a percent, kSamplesPerS samples/s (-1: none).
// Noted under `where`.
std::string HeadlineValueText(std::string_view where, HeadlineFigure figure, double value);

}  // namespace stepline::analysis
