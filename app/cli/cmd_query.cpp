// `stepline query FILE SQL [--csv | --json] [--max-rows N]`: SQL over the
// loaded trace with no export (query/query_session.h). The tables and
// columns are the SQLite export's. Read-only; a bad query prints SQLite's
// message and exits 1.
#include <ostream>
#include <string>

#include "app/cli/cli_args.h"
#include "app/cli/command_options.h"
#include "app/cli/commands.h"
#include "app/output/query_output.h"
#include "app/runs/cached_trace_load.h"
#include "loaders/load.h"
#include "query/query_session.h"

namespace stepline::app {
namespace {

constexpr std::string_view kQueryUsage =
    "usage: stepline query FILE SQL [--csv | --json] [--max-rows N]\n"
    "  runs SQL over the loaded trace, no export needed; the tables and columns are the SQLite\n"
    "  export's: slice, track, flow, instant, counter, arg, step, step_breakdown, gap, op_stat,\n"
    "  kernel_stat (docs/ask.md). Read-only.\n"
    "  (no flags)     an aligned table\n"
    "  --csv          a header line and the rows as CSV\n"
    "  --json         {\"columns\": [...], \"rows\": [[...]], \"row_count\": N, \"truncated\": bool}\n"
    "  --max-rows N   stop after N rows (default 10000; stderr says when rows were left out)\n"
    "  FILE may be a TensorBoard/XProf log directory: its newest profile run is used\n";

constexpr int64_t kDefaultMaxRows = 10'000;

}  // namespace

int RunQuery(const Args& args, std::ostream& out, std::ostream& err) {
  auto parsed = ParsedArgs::Parse(args, ArgSpec{{"--csv", "--json", "--help"}, {"--max-rows"}});
  std::string path, sql;
  size_t max_rows = 0;
  const auto read = [&](const ParsedArgs& a) -> std::string {
    if (a.positionals().size() != 2) return "expected FILE and SQL";
    path = a.positionals()[0];
    sql = a.positionals()[1];
    if (a.Has("--csv") && a.Has("--json")) return "--csv and --json exclude each other";
    auto rows = a.IntValue("--max-rows", kDefaultMaxRows, 0, INT64_MAX);
    if (!rows) return rows.error();
    max_rows = static_cast<size_t>(*rows);
    return "";
  };
  if (auto code = HandleHelpOrUsageError(parsed, read, "stepline query", kQueryUsage, out, err)) return *code;
  if (!ChooseTraceArg(&path, "stepline query", err)) return 1;

  CachedTraceLoad load;
  auto& loaded = load.Load(path);
  if (!loaded) {
    err << "stepline query: " << loaded.error().ToString() << "\n";
    return 1;
  }
  auto session = query::QuerySession::Open(loaded.value());
  if (!session) {
    err << "stepline query: " << session.error() << "\n";
    return 1;
  }
  auto result = (*session)->Run(sql, max_rows);
  if (!result) {
    err << "stepline query: " << result.error() << "\n";
    return 1;
  }
  if (parsed->Has("--csv")) {
    std::string csv;
    AppendQueryCsv(*result, &csv);
    out << csv;
  } else if (parsed->Has("--json")) {
    WriteQueryJson(*result, out);
  } else {
    WriteQueryTable(*result, out);
  }
  if (result->truncated && !parsed->Has("--json")) {
    err << "stepline query: stopped after " << max_rows << " rows (--max-rows)\n";
  }
  return out.good() ? 0 : 1;
}

}  // namespace stepline::app
