// The three printed forms of an analysis::Report for `stepline report`: the
// --json object (keys in docs/cli.md), the four --csv tables, and the
// text report. Pure formatting: no file system access, no analysis.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

#include "model/analysis/report.h"

namespace stepline::app {

// Writes exactly one JSON object and a newline. Unknown values are null:
// primary_device without GPU activity, a gap's step outside every step, its
// next_kernel and launch_delay_ns when the trace cannot tell, and a kernel's
// launch configuration fields. Built in one string buffer that is handed to
// `out` in ~1 MB pieces, so 100k+ gaps cost neither per-field stream calls
// nor one giant allocation.
// `extra_members` (`"key":value,...`, no braces) is spliced in after the
// report's own members: the trace's diagnostics (app/output/diagnostics_output.h).
void WriteReportJson(const analysis::Report& report, std::ostream& out, std::string_view extra_members = {});

// The --csv tables; each row of `steps`, `ops`, `kernels`, `gaps` in the JSON
// is one CSV row, in the same order, under a header line. RFC 4180 quoting
// (a field with a comma, quote, CR or LF is quoted, quotes doubled), LF line
// ends, unknown values as empty cells. Fields are quoted by
// ui::AppendCsvField, the same quoting as the UI's table exports.
enum class ReportTable : uint8_t { kSteps = 0, kOps, kKernels, kGaps, kMemory, kHeadline };
inline constexpr int kReportTableCount = 6;
std::string_view ReportTableFileName(ReportTable table);  // "steps.csv", ...
void AppendReportCsv(const analysis::Report& report, ReportTable table, std::string* out);

// What the text report says about the run besides the Report itself.
struct ReportTextContext {
  std::string path;              // the trace file
  TimeNs origin_ns = 0;          // gap times are printed relative to this (the trace's start)
  double load_ms = -1;           // < 0: not printed
  double analysis_ms = -1;       // < 0: not printed
  DurNs min_gap_ns = 0;          // the --min-gap-us threshold of the listed gaps
  std::string_view step_source;  // StepSourceName of the report's steps
};

// The readable report: primary device, steps (mean +/- std), the step-time
// breakdown (ns and % of step time), idle by cause, the top 10 ops by total
// and by self time, the 10 longest gaps with their blamed host events, and
// the recommendations.
void WriteReportText(const analysis::Report& report, const ReportTextContext& context, std::ostream& out);

}  // namespace stepline::app
