// HeadlineFigureText and its recorder (headline_text.h).
#include "ui/headline_text.h"

#include "model/analysis/headline_record.h"

namespace stepline::ui {
namespace {

std::vector<DrawnHeadline>* g_sink = nullptr;

}  // namespace

void RecordHeadlines(std::vector<DrawnHeadline>* sink) { g_sink = sink; }

std::string HeadlineFigureText(const char* view, const analysis::Headline& h, analysis::HeadlineFigure figure,
                               const std::string& subject) {
  std::string text = analysis::HeadlineText(h, figure);
  if (g_sink != nullptr) g_sink->push_back({view, figure, text, subject});
  return text;
}

std::string HeadlineValueFigureText(const char* view, analysis::HeadlineFigure figure, double value,
                                    const std::string& subject) {
  std::string text = analysis::HeadlineValueText(view, figure, value);
  if (g_sink != nullptr) g_sink->push_back({view, figure, text, subject});
  return text;
}

}  // namespace stepline::ui
