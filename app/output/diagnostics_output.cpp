// Diagnostics for `report` and `diff`; see diagnostics_output.h.
#include "app/output/diagnostics_output.h"

#include <ostream>

#include "app/output/json_writer.h"
#include "ui/load_warnings.h"

namespace stepline::app {

void WriteDiagnosticsTop(const Trace& trace, const std::string& label, std::ostream& out) {
  const std::vector<ui::DiagnosticRow> rows = ui::DiagnosticRows(trace.diagnostics());
  if (rows.empty()) return;
  if (const std::string banner = ui::DataLossBanner(trace); !banner.empty()) {
    out << label << "WARNING: " << banner << "\n";
  }
  out << label << "diagnostics: " << ui::GroupDigits(trace.diagnostics().total()) << " in " << rows.size()
      << (rows.size() == 1 ? " kind" : " kinds") << "\n";
  for (const ui::DiagnosticRow& r : rows) {
    out << label << "  " << r.severity << " " << r.code << " x" << ui::GroupDigits(r.count);
    if (r.first_offset != Diagnostics::kNoOffset) out << ", first at byte " << r.first_offset;
    out << ": " << r.message << "\n";
  }
  out << "\n";
}

void WriteDataLossLine(const Trace& trace, const std::string& side, const std::string& path, std::ostream& out) {
  const std::string banner = ui::DataLossBanner(trace);
  if (!banner.empty()) out << "WARNING: " << side << " (" << path << ") is partial: " << banner << "\n\n";
}

std::string DiagnosticsJsonMembers(const Trace& trace) {
  // Written as a whole object so JsonWriter does the commas and quoting;
  // its braces are cut off below.
  JsonWriter members;
  members.BeginObject();
  const bool partial = trace.diagnostics().has_data_loss();
  members.Key("partial").Bool(partial);
  members.Key("data_loss");
  if (partial) {
    members.String(ui::DataLossBanner(trace));
  } else {
    members.Null();
  }
  members.Key("diagnostics").BeginArray();
  for (const ui::DiagnosticRow& r : ui::DiagnosticRows(trace.diagnostics())) {
    members.BeginObject().Field("severity", r.severity).Field("code", r.code).Field("count", r.count);
    members.Key("first_offset");
    if (r.first_offset == Diagnostics::kNoOffset) {
      members.Null();
    } else {
      members.Uint(r.first_offset);
    }
    members.Field("message", r.message).EndObject();
  }
  members.EndArray().EndObject();
  std::string text = members.text();
  return text.substr(1, text.size() - 2);
}

}  // namespace stepline::app
