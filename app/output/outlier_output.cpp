// JSON and text forms of Report::outlier_steps.
#include "app/output/outlier_output.h"

#include <ostream>

#include "app/output/text_format.h"
#include "export/json_text.h"

namespace stepline::app {

void AppendOutlierStepsJson(const analysis::Report& report, std::string* out) {
  out->append(",\"outlier_steps\":[");
  for (size_t i = 0; i < report.outlier_steps.size(); ++i) {
    const analysis::ReportOutlierStep& o = report.outlier_steps[i];
    out->append(i == 0 ? "{\"name\":" : ",{\"name\":");
    exports::AppendJsonString(out, o.name);
    out->append(",\"dur_ns\":");
    exports::AppendJsonInt(out, o.dur_ns);
    out->append(",\"excess_ns\":");
    exports::AppendJsonInt(out, o.excess_ns);
    out->append(",\"cause\":");
    if (o.cause.empty()) {
      out->append("null");
    } else {
      exports::AppendJsonString(out, o.cause);
    }
    out->append(",\"blamed\":[");
    for (size_t k = 0; k < o.blamed.size(); ++k) {
      if (k > 0) out->push_back(',');
      exports::AppendJsonString(out, o.blamed[k]);
    }
    out->append("]}");
  }
  out->push_back(']');
}

void WriteOutlierText(const analysis::Report& report, std::ostream& out) {
  if (report.outlier_steps.empty()) return;
  out << "\nOutlier steps (slower than " << FormatDuration(report.outlier_threshold_ns)
      << ": the median + max(3 MAD, 20% of the median))\n";
  for (const analysis::ReportOutlierStep& o : report.outlier_steps) {
    out << "  " << o.name << ": " << FormatDuration(o.dur_ns) << ", +" << FormatDuration(o.excess_ns)
        << " over the median";
    if (!o.cause.empty()) out << "; grew most: " << o.cause;
    out << "\n";
    for (size_t k = 0; k < o.blamed.size(); ++k) {
      out << "      runs in it: " << ClipName(o.blamed[k]) << " (+" << FormatDuration(o.blamed_excess_ns[k]) << ")\n";
    }
  }
}

}  // namespace stepline::app
