// The report --json document; see report_document.h.
#include "app/output/report_document.h"

#include "app/output/diagnostics_output.h"
#include "app/output/report_output.h"
#include "model/analysis/ranks_summary_json.h"

namespace stepline::app {

void WriteReportJsonDocument(const Trace& trace, const analysis::TraceAnalysis& analysis,
                             const analysis::Report& report, const std::string& path, std::ostream& out) {
  // A rank of a distributed run carries what `stepline ranks --from-reports` merges.
  std::string members = DiagnosticsJsonMembers(trace);
  analysis::RankSummary rank = analysis::SummarizeRank(trace, analysis, path);
  if (rank.rank >= 0 || !rank.collectives.empty()) {
    members += std::string(members.empty() ? "" : ",\n") + "  \"rank_summary\": " + analysis::RankSummaryToJson(rank);
  }
  WriteReportJson(report, out, members);
}

}  // namespace stepline::app
