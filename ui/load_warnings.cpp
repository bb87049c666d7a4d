// LoadWarnings: banner and rows from a trace's diagnostics; see load_warnings.h.
#include "ui/load_warnings.h"

#include <algorithm>

#include "ui/timeline/time_ruler.h"

namespace stepline::ui {
namespace {

std::string Message(const Diagnostics::Entry& e) {
  if (!e.instances.empty() && !e.instances.front().detail.empty()) return e.instances.front().detail;
  return std::string(GetDiagCodeInfo(e.code).description);
}

// "JSON text", "XSpace protobuf", ... for a cut in an uncompressed file.
std::string WhatWasCut(const std::string& format) {
  if (format == "chrome-json") return "JSON text cut";
  if (format == "xplane") return "XSpace protobuf cut";
  if (format == "perfetto") return "Perfetto protobuf cut";
  return "input cut";
}

}  // namespace

std::string GroupDigits(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string DataLossBanner(const Trace& trace) {
  const Diagnostics& d = trace.diagnostics();
  if (!d.has_data_loss()) return "";
  const TraceInfo& info = trace.info();
  std::vector<const Diagnostics::Entry*> lost;
  for (const Diagnostics::Entry* e : d.NonEmpty()) {
    if (GetDiagCodeInfo(e->code).severity == Severity::kDataLoss) lost.push_back(e);
  }
  const std::string covered =
      "the analysis covers what was loaded (the first " + FormatDuration(trace.span().duration_ns()) + ")";
  std::string text;
  const Diagnostics::Entry& first = *lost.front();
  if (first.code == DiagCode::kTruncated && info.event_cap > 0) {
    // The file is whole; the converter that wrote it stopped at its cap.
    text = "XLA's trace viewer stopped at " + GroupDigits(info.event_cap) +
           " events (TF_PROFILER_TRACE_VIEWER_MAX_EVENTS): events after the last recorded one are missing; " +
           covered + ".";
  } else if (first.code == DiagCode::kTruncated) {
    // The file's own byte offset when a compressed stream broke (what a
    // user can check with `ls -l`), else the offset where parsing stopped.
    const bool compressed = info.compressed_cut && !info.compression.empty();
    const uint64_t at = compressed ? info.compressed_cut_at : first.first_offset;
    const std::string why = compressed ? info.compression + " stream cut" : WhatWasCut(info.format);
    text = "This file ends early";
    if (at != Diagnostics::kNoOffset) text += " at byte " + GroupDigits(at);
    text += " (" + why + "): events after the cut are missing; " + covered + ".";
  } else {
    text = "Part of this file was not loaded: " + std::string(GetDiagCodeInfo(first.code).description) + " (" +
           GroupDigits(first.count) + (first.count == 1 ? " time" : " times");
    if (first.first_offset != Diagnostics::kNoOffset) text += ", first at byte " + GroupDigits(first.first_offset);
    text += "); " + covered + ".";
  }
  if (lost.size() > 1) {
    text += " " + std::to_string(lost.size() - 1) + " more kind" + (lost.size() > 2 ? "s" : "") + " of data loss.";
  }
  return text;
}

std::vector<DiagnosticRow> DiagnosticRows(const Diagnostics& diagnostics) {
  std::vector<DiagnosticRow> rows;
  for (const Diagnostics::Entry* e : diagnostics.NonEmpty()) {
    const DiagCodeInfo& info = GetDiagCodeInfo(e->code);
    rows.push_back({std::string(SeverityName(info.severity)), std::string(info.name), e->count, e->first_offset,
                    Message(*e)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const DiagnosticRow& a, const DiagnosticRow& b) {
    return (a.severity == "data_loss") > (b.severity == "data_loss");
  });
  return rows;
}

}  // namespace stepline::ui
