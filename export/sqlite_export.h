// `stepline export FILE --sqlite OUT.db`: the model and its analysis as an
// SQLite database, for scripts. The schema (tables, columns, units) is
// declared once in sqlite_export.cpp and documented in docs/cli.md, "stepline export".
#pragma once

#include <functional>
#include <string>

#include "model/trace.h"

namespace stepline::sqlite {
class Database;
}  // namespace stepline::sqlite

namespace stepline::exports {

struct SqliteExportOptions {
  bool force = false;  // replace an existing OUT.db
};

struct SqliteExportCounts {
  uint64_t slices = 0, tracks = 0, flows = 0, counters = 0, args = 0, instants = 0;
  uint64_t steps = 0, gaps = 0, ops = 0, kernels = 0, breakdown = 0;
  // Where the time goes, as CPU ms of the thread doing it (robust on a
  // shared machine). The main thread, which alone writes OUT.db: the track,
  // slice and flow tables (with the slice(track_id, ts) index, kept while
  // inserting); the slice(name) index; copying in the side tables; the
  // analysis tables, the counter index and the commit. The side thread,
  // meanwhile: arg, instant and counter written into a database of their
  // own. `wait_ms` is the main thread's wall time waiting for the side one.
  double slices_cpu_ms = 0, name_index_cpu_ms = 0, copy_cpu_ms = 0, finish_cpu_ms = 0;
  double side_cpu_ms = 0, wait_ms = 0;
};

// Writes `trace` into a new database at `path`, atomically: into a temporary
// file beside it, renamed into place when complete, so `path` is either the
// old file (or absent) or the whole export. Without `force` an existing
// `path` is an error. Returns "" or an error naming the file.
std::string ExportSqlite(const Trace& trace, const std::string& path, const SqliteExportOptions& options,
                         SqliteExportCounts* counts = nullptr);

// The analysis tables (step, gap, op_stat, kernel_stat, step_breakdown):
// the one place the export reads model/analysis, in sqlite_export_analysis.cpp.
// Starts computing the analysis on another thread (the model tables are
// written meanwhile) and returns what writes its tables once it is done.
std::function<void(sqlite::Database*, SqliteExportCounts*)> StartAnalysisTables(const Trace& trace);

}  // namespace stepline::exports
