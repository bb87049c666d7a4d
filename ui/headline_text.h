// The one way a view draws a headline figure (model/analysis/headline.h):
// it asks HeadlineFigureText for the text, which notes what was drawn where
// a test can read it. A view that formats a headline figure itself draws
// nothing the recorder sees, and the test that compares every view with
// `report --json` fails.
#pragma once

#include <string>
#include <vector>

#include "model/analysis/headline.h"

namespace stepline::ui {

struct DrawnHeadline {
  std::string view;  // "overview", "summary line", "compare", "ranks", "caption"
  analysis::HeadlineFigure figure = analysis::HeadlineFigure::kSteps;
  std::string text;
  // Whose figure, where a view shows several traces: "A" / "B" in the
  // compare view, a rank's file in the ranks view; "" the one trace.
  std::string subject;
};

// Tests: every later HeadlineFigureText call appends to `sink`; null stops.
// One thread (the UI's) draws, so no lock.
void RecordHeadlines(std::vector<DrawnHeadline>* sink);

// HeadlineText(h, figure), noted for the recorder under `view`.
std::string HeadlineFigureText(const char* view, const analysis::Headline& h, analysis::HeadlineFigure figure,
                               const std::string& subject = {});
// One value formatted as its figure is (analysis::HeadlineValueText), noted
// the same way: a step's own samples/s in the step chart's tooltip.
std::string HeadlineValueFigureText(const char* view, analysis::HeadlineFigure figure, double value,
                                    const std::string& subject = {});

}  // namespace stepline::ui
