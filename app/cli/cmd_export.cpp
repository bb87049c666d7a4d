// `stepline export FILE --sqlite OUT.db [--force]`: loads a trace and writes
// it, with its analysis, as an SQLite database (sqlite_export.h).
#include <sys/resource.h>

#include <chrono>
#include <ostream>

#include "app/runs/cached_trace_load.h"
#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "export/sqlite_export.h"
#include "app/output/text_format.h"
#include "app/runs/timing.h"
#include "loaders/load.h"

namespace stepline::app {
namespace {

constexpr std::string_view kExportUsage =
    "usage: stepline export FILE --sqlite OUT.db [--force]\n"
    "  --sqlite OUT.db  write the trace and its analysis as an SQLite database (schema: docs/cli.md,\n"
    "                   \"stepline export\"); written to a temporary file and renamed when complete\n"
    "  --force          replace OUT.db when it exists\n"
    "  FILE may be a TensorBoard/XProf log directory: its newest profile run is used\n";

// CPU time of this process, ms: on a machine shared with other work the
// wall time says more about the neighbours than about the export.
double CpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

}  // namespace

int RunExport(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--force", "--help"}, {"--sqlite"}});
  std::string path, db_path;
  const auto read = [&](const ParsedArgs& a) -> std::string {
    if (a.positionals().size() != 1) return "expected exactly one FILE";
    path = a.positionals().front();
    if (!a.Value("--sqlite") || a.Value("--sqlite")->empty()) return "--sqlite OUT.db is required";
    db_path = *a.Value("--sqlite");
    return "";
  };
  if (auto code = HandleHelpOrUsageError(parsed, read, "stepline export", kExportUsage, out, err)) return *code;
  if (!ChooseTraceArg(&path, "stepline export", err)) return 1;

  const auto load_start = std::chrono::steady_clock::now();
  CachedTraceLoad load;  // writes the column cache entry after the output
  auto& loaded = load.Load(path);
  const double load_ms = MsSince(load_start);
  if (!loaded) {
    err << loaded.error().ToString() << "\n";
    return 1;
  }
  exports::SqliteExportOptions options;
  options.force = parsed->Has("--force");
  exports::SqliteExportCounts counts;
  const auto write_start = std::chrono::steady_clock::now();
  const double cpu_start = CpuMs();
  if (std::string error = exports::ExportSqlite(loaded.value(), db_path, options, &counts); !error.empty()) {
    err << "stepline export: " << error << "\n";
    return 1;
  }
  const double write_ms = MsSince(write_start);
  const double cpu_ms = CpuMs() - cpu_start;
  const auto per_s = [&](double ms) { return FormatFixed(ms > 0 ? counts.slices / ms / 1e3 : 0, 2); };
  out << "wrote " << db_path << ": " << FormatCount(counts.slices) << " slices, " << FormatCount(counts.tracks)
      << " tracks, " << FormatCount(counts.flows) << " flows, " << FormatCount(counts.counters) << " counter samples, "
      << FormatCount(counts.args) << " args, " << FormatCount(counts.steps) << " steps, " << FormatCount(counts.gaps)
      << " gaps\n"
      << "load " << FormatFixed(load_ms, 1) << " ms; export " << FormatFixed(write_ms, 1) << " ms wall, "
      << FormatFixed(cpu_ms, 1) << " ms CPU (" << per_s(write_ms) << " / " << per_s(cpu_ms)
      << " M slices/s; analysis, args and indexes included)\n"
      << "CPU by phase: main thread: slice and flow tables " << FormatFixed(counts.slices_cpu_ms, 1) << " ms, name index "
      << FormatFixed(counts.name_index_cpu_ms, 1) << " ms, copying the side tables "
      << FormatFixed(counts.copy_cpu_ms, 1) << " ms, analysis tables and commit " << FormatFixed(counts.finish_cpu_ms, 1)
      << " ms (waited " << FormatFixed(counts.wait_ms, 1) << " ms); side thread (args, instants, counters) "
      << FormatFixed(counts.side_cpu_ms, 1) << " ms\n";
  return out.good() ? 0 : 1;
}

}  // namespace stepline::app
