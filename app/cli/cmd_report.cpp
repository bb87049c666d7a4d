// `stepline report FILE [--json] [--csv DIR] [--steps REGEX] [--min-gap-us N]
// [--patterns TSV]`: loads a trace, runs analysis::ComputeReport once and
// prints it (report_output.h) or writes its CSV tables into DIR.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

#include "app/runs/cached_trace_load.h"
#include "app/runs/snapshot_pair.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/output/diagnostics_output.h"
#include "export/file_publish.h"
#include "loaders/posix_io.h"
#include "app/output/report_document.h"
#include "app/output/report_markdown.h"
#include "app/output/report_output.h"
#include "app/runs/timing.h"
#include "export/file_publish.h"
#include "loaders/load.h"
#include "model/analysis/findings.h"
#include "model/analysis/headline.h"
#include "model/analysis/ranks_summary_json.h"
#include "model/analysis/report.h"

namespace stepline::app {
namespace {

constexpr std::string_view kReportUsage =
    "usage: stepline report FILE [--json] [--csv DIR [--force]] [--steps REGEX] [--min-gap-us N]\n"
    "                            [--patterns TSV] [--peak-tflops X] [--peak-dtype T] [--batch-size N]\n"
    "  (no flags)      a readable report: steps, step-time breakdown, idle causes, top ops and gaps,\n"
    "                  recommendations\n"
    "  --json          the report as one JSON object\n"
    "  --format md     the report as Markdown, with numbered findings (F1, ...) and their evidence;\n"
    "                  --format text (the default) and --format json are the other two\n"
    "  --csv DIR       write steps.csv, ops.csv, kernels.csv, gaps.csv and memory.csv into DIR (created if missing)\n"
    "  --force         replace CSV files that already exist in DIR\n"
    "  --steps REGEX   steps are the top-level host slices whose name matches (used when the trace\n"
    "                  has no step markers of its own)\n"
    "  --min-gap-us N  list GPU idle gaps of at least N us (default 10); all idle time is still counted\n"
    "  --patterns TSV  extra idle-cause name patterns, CATEGORY<TAB>PATTERN per line (format of\n"
    "                  assets/idle_cause_patterns.tsv); they override the built-in ones\n"
    "  --memory-snapshot SNAP  a PyTorch memory snapshot of the same run: the memory section comes\n"
    "                  from it, its times placed on the trace's by the epoch clock\n"
    "  FILE may be a TensorBoard/XProf log directory: its newest profile run is used\n";

constexpr int64_t kMaxMinGapUs = 3'600'000'000;  // an hour: anything larger lists nothing anyway

struct ReportSettings {
  std::string path;
  bool json = false;
  bool markdown = false;
  std::string csv_dir;  // "" = no CSV
  std::string snapshot;  // --memory-snapshot; "" = none
  bool force = false;
  analysis::ReportOptions options;
  analysis::IdleCauseTable table;  // options.table points here when --patterns is given
};

std::string ReadTextFile(const std::string& path, std::string* text) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return path + " is a directory";
  std::ifstream in(path, std::ios::binary);
  if (!in) return "cannot read " + path + ": " + std::strerror(errno);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = std::move(buffer).str();
  return "";
}

// The built-in table plus the user's rows after it: the table's last
// matching row wins, so user rows override, and a file holding a few extra
// patterns does not silently drop every default.
std::string LoadPatterns(const std::string& path, analysis::IdleCauseTable* table) {
  std::string text;
  if (std::string error = ReadTextFile(path, &text); !error.empty()) return "--patterns: " + error;
  analysis::IdleCauseTable user;
  std::string error;
  if (!analysis::IdleCauseTable::Parse(text, &user, &error)) return "--patterns " + path + ": " + error;
  *table = analysis::IdleCauseTable::Default();
  for (const analysis::IdleCauseTable::Row& row : user.rows()) table->Add(row.category, row.pattern);
  return "";
}

// Fills `s` from the parsed arguments; returns an error message, or "".
std::string ReadSettings(const ParsedArgs& a, ReportSettings* s) {
  if (a.positionals().size() != 1) return "expected exactly one FILE";
  s->path = a.positionals().front();
  s->json = a.Has("--json");
  if (auto format = a.Value("--format")) {
    if (*format == "md" || *format == "markdown") {
      s->markdown = true;
    } else if (*format == "json") {
      s->json = true;
    } else if (*format != "text") {
      return "--format: expected text, json or md, got \"" + *format + "\"";
    }
  }
  if (s->markdown && s->json) return "--format md and --json exclude each other";
  s->force = a.Has("--force");
  if (auto dir = a.Value("--csv")) {
    if (dir->empty()) return "--csv needs a directory";
    s->csv_dir = *dir;
  }
  if (s->force && s->csv_dir.empty()) return "--force only applies to --csv";
  if (auto snapshot = a.Value("--memory-snapshot")) {
    if (snapshot->empty()) return "--memory-snapshot needs a file";
    s->snapshot = *snapshot;
  }
  auto min_gap_us = a.IntValue("--min-gap-us", 10, 0, kMaxMinGapUs);
  if (!min_gap_us) return min_gap_us.error();
  s->options.min_gap_ns = *min_gap_us * 1000;
  if (std::string error = ReadStepsRegex(a, &s->options.steps_regex); !error.empty()) return error;
  if (std::string error = ReadEfficiencyOptions(a, &s->options.efficiency); !error.empty()) return error;
  if (auto patterns = a.Value("--patterns")) {
    if (std::string error = LoadPatterns(*patterns, &s->table); !error.empty()) return error;
    s->options.table = &s->table;
  }
  return "";
}

// Writes `bytes` to `path` through a temporary file in the same directory,
// so a reader never sees a half-written table. Without `force`, link() makes
// the final step fail atomically if `path` appeared meanwhile.
std::string PublishFile(const std::string& path, const std::string& bytes, bool force) {
  std::string tmp, error;
  const int fd = exports::file_publish::CreateTempNextTo(path, ".tmp", &tmp, &error);
  if (fd < 0) return error;
  const bool written = loaders::WriteAll(fd, bytes);
  const std::string write_error = written ? "" : exports::file_publish::Errno("cannot write", tmp);
  if (::close(fd) != 0 || !written) {
    ::unlink(tmp.c_str());
    return write_error.empty() ? exports::file_publish::Errno("cannot write", tmp) : write_error;
  }
  auto published = exports::file_publish::Publish(tmp, path, force);
  if (!published.ok()) {
    ::unlink(tmp.c_str());
    return published.error();
  }
  return "";
}

// Writes the tables into `dir`, creating it. Without `force` nothing is
// written when any table exists already, so a rerun cannot mix two reports.
std::string WriteCsvTables(const analysis::Report& report, const std::string& dir, bool force, std::ostream* log) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create directory " + dir + ": " + ec.message();
  if (!fs::is_directory(dir, ec)) return dir + " is not a directory";
  std::string paths[kReportTableCount];
  for (int t = 0; t < kReportTableCount; ++t) {
    paths[t] = (fs::path(dir) / ReportTableFileName(static_cast<ReportTable>(t))).string();
    if (!force && fs::exists(fs::symlink_status(paths[t], ec))) {
      return paths[t] + " already exists (use --force to replace it)";
    }
  }
  const size_t rows[kReportTableCount] = {report.steps.size(), report.ops.size(), report.kernels.size(),
                                          report.gaps.size(), report.allocations.size(),
                                          std::size(analysis::kHeadlineTableFigures)};
  for (int t = 0; t < kReportTableCount; ++t) {
    std::string csv;
    AppendReportCsv(report, static_cast<ReportTable>(t), &csv);
    if (std::string error = PublishFile(paths[t], csv, force); !error.empty()) return error;
    if (log) *log << "wrote " << paths[t] << " (" << rows[t] << (rows[t] == 1 ? " row)\n" : " rows)\n");
  }
  return "";
}

}  // namespace

int RunReport(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(
      args, ArgSpec{{"--json", "--force", "--help"}, {"--csv", "--steps", "--min-gap-us", "--patterns", "--format", "--peak-tflops", "--peak-dtype", "--batch-size", "--memory-snapshot"}});
  ReportSettings settings;
  const auto read = [&settings](const ParsedArgs& a) { return ReadSettings(a, &settings); };
  if (auto code = HandleHelpOrUsageError(parsed, read, "stepline report", std::string(kReportUsage) + std::string(kEfficiencyUsage), out, err)) return *code;

  if (!ChooseTraceArg(&settings.path, "stepline report", err)) return 1;
  const auto load_start = std::chrono::steady_clock::now();
  CachedTraceLoad load;  // writes the column cache entry after the output
  std::optional<Trace> paired;  // with --memory-snapshot: parsed, the snapshot's rows added
  const Trace* opened = nullptr;
  if (!settings.snapshot.empty()) {
    std::string notice;
    auto r = LoadTraceWithSnapshot(settings.path, settings.snapshot, &notice);
    if (!r) {
      err << "stepline report: " << r.error() << "\n";
      return 1;
    }
    if (!notice.empty()) err << "stepline report: " << notice << "\n";
    opened = &paired.emplace(std::move(r).value());
  } else if (auto& loaded = load.Load(settings.path); loaded) {
    opened = &loaded.value();
  } else {
    err << loaded.error().ToString() << "\n";
    return 1;
  }
  const double load_ms = MsSince(load_start);
  const Trace& trace = *opened;
  const auto analysis_start = std::chrono::steady_clock::now();
  const analysis::TraceAnalysis trace_analysis = analysis::ComputeAnalysis(trace, settings.options);
  const analysis::Report report = analysis::ResolveReport(trace, trace_analysis);
  const double analysis_ms = MsSince(analysis_start);
  WarnAboutSteps(report.step_source, report.step_error, settings.options.steps_regex, "stepline report: ", err);
  const std::string_view step_source = analysis::StepSourceName(report.step_source);

  if (!settings.csv_dir.empty()) {
    // With --json, stdout carries only the JSON object.
    const std::string csv_error =
        WriteCsvTables(report, settings.csv_dir, settings.force, (settings.json || settings.markdown) ? nullptr : &out);
    if (!csv_error.empty()) {
      err << "stepline report: " << csv_error << "\n";
      return 1;
    }
  }
  if (settings.json) {
    WriteReportJsonDocument(trace, trace_analysis, report, settings.path, out);
  } else if (settings.csv_dir.empty() || settings.markdown) {
    ReportTextContext context;
    context.path = settings.path;
    context.origin_ns = trace.span().start_ns;
    context.load_ms = load_ms;
    context.analysis_ms = analysis_ms;
    context.step_source = step_source;
    context.min_gap_ns = settings.options.min_gap_ns;
    if (settings.markdown) {
      WriteReportMarkdown(report, analysis::ComputeFindings(trace, report), context, out);
    } else {
      WriteDiagnosticsTop(trace, "", out);  // a partial file is said first, before any figure
      WriteReportText(report, context, out);
    }
  }
  return out.good() ? 0 : 1;
}

}  // namespace stepline::app
