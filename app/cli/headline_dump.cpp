// The headline figures a screenshot drew, as text (headline_dump.h).
#include "app/cli/headline_dump.h"

#include <fstream>
#include <set>
#include <tuple>

#include "model/analysis/headline_record.h"

namespace stepline::app {

bool WriteHeadlineDump(const std::string& path, const std::vector<ui::DrawnHeadline>& drawn, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  std::set<std::tuple<std::string, std::string, int, std::string>> seen;
  for (const ui::DrawnHeadline& d : drawn) {
    if (!seen.insert({d.view, d.subject, static_cast<int>(d.figure), d.text}).second) continue;
    out << d.view << '\t' << d.subject << '\t' << analysis::HeadlineFigureKey(d.figure) << '\t' << d.text << '\n';
  }
  out.flush();
  if (!out) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace stepline::app
