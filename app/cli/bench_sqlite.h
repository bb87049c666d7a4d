// `stepline bench FILE --sqlite`: the SQLite export's speed (the target is
// for 1 M slices/s) beside same-run floors: SQLite's own rates for a trivial
// insert loop and for indexing a text column, on this machine at this moment.
#pragma once

#include <string>

#include "export/sqlite_export.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::app {

struct SqliteBenchResult {
  uint64_t slices = 0;
  double wall_ms = 0, cpu_ms = 0;  // medians over the runs of the whole export (analysis, args, indexes)
  exports::SqliteExportCounts phases;       // CPU by phase of the last run
  // The floors, CPU, over as many rows as the trace has slices: one reused
  // prepared INSERT of 4 integers into a rowid table with no index; and
  // CREATE INDEX over a table of (id, name) holding the trace's slice names.
  double floor_insert_rows_per_s = 0;
  double floor_name_index_rows_per_s = 0;
};

// Exports `trace` `repeat` times into a temporary directory (deleted after).
Result<SqliteBenchResult, std::string> MeasureSqliteExport(const Trace& trace, int repeat);

}  // namespace stepline::app
