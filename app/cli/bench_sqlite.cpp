// MeasureSqliteExport (see bench_sqlite.h): R exports of a loaded trace into
// a temporary directory, and the two SQLite floors measured in the same run,
// so a reader can tell the export's own overhead from SQLite's B-tree cost.
#include "app/cli/bench_sqlite.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <vector>

#include "app/cli/process_memory.h"
#include "sqlite/insert.h"
#include "app/runs/timing.h"

namespace stepline::app {
namespace {

double RowsPerS(uint64_t rows, double cpu_ms) { return cpu_ms > 0 ? static_cast<double>(rows) / cpu_ms * 1e3 : 0; }

// The trivial loop: one prepared single-row INSERT, bound and stepped per
// row, in one transaction; then, on a second table holding the slice names
// (inserted the same way), the CREATE INDEX that an index on the name text
// costs (the export indexes name ids instead; see sqlite_export.cpp).
std::string MeasureFloors(const Trace& trace, const std::string& path, SqliteBenchResult* out) {
  sqlite::Database db;
  if (!db.OpenForWriting(path)) return db.error();
  db.Exec(sqlite::Database::kBulkWritePragmas);
  db.Exec("BEGIN; CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER, c INTEGER);"
          "CREATE TABLE n(id INTEGER PRIMARY KEY, name TEXT);");
  const SliceTable& s = trace.slices();
  const uint64_t rows = s.size();
  const auto insert_loop = [&](const char* sql, auto bind) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt, nullptr) != SQLITE_OK) return db.Fail(sql);
    for (uint64_t i = 0; i < rows; ++i) {
      bind(stmt, i);
      if (sqlite3_step(stmt) != SQLITE_DONE) {
        db.Fail(sql);
        break;
      }
      sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
  };
  double t0 = ProcessCpuMs();
  insert_loop("INSERT INTO t VALUES(?,?,?,?)", [&](sqlite3_stmt* stmt, uint64_t i) {
    sqlite3_bind_int64(stmt, 1, static_cast<int64_t>(i));
    sqlite3_bind_int64(stmt, 2, s.start_ns()[i]);
    sqlite3_bind_int64(stmt, 3, s.dur_ns()[i]);
    sqlite3_bind_int64(stmt, 4, s.track()[i].index());
  });
  out->floor_insert_rows_per_s = RowsPerS(rows, ProcessCpuMs() - t0);
  insert_loop("INSERT INTO n VALUES(?,?)", [&](sqlite3_stmt* stmt, uint64_t i) {
    const std::string_view name = trace.str(s.name()[i]);
    sqlite3_bind_int64(stmt, 1, static_cast<int64_t>(i));
    sqlite3_bind_text(stmt, 2, name.data(), static_cast<int>(name.size()), SQLITE_STATIC);
  });
  t0 = ProcessCpuMs();
  db.Exec("CREATE INDEX n_name ON n(name);");
  out->floor_name_index_rows_per_s = RowsPerS(rows, ProcessCpuMs() - t0);
  db.Exec("COMMIT;");
  std::string error = db.error();
  if (!db.Close() && error.empty()) error = db.error();
  return error;
}

}  // namespace

Result<SqliteBenchResult, std::string> MeasureSqliteExport(const Trace& trace, int repeat) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string dir = (fs::temp_directory_path(ec) / "stepline-bench-XXXXXX").string();
  if (!::mkdtemp(dir.data())) return MakeUnexpected("cannot create a temporary directory " + dir);
  SqliteBenchResult result;
  std::vector<double> wall, cpu;
  std::string error;
  for (int run = 0; run < std::max(1, repeat) && error.empty(); ++run) {
    const std::string db_path = dir + "/export.db";
    exports::SqliteExportCounts counts;
    const double cpu_start = ProcessCpuMs();
    const auto start = std::chrono::steady_clock::now();
    error = exports::ExportSqlite(trace, db_path, exports::SqliteExportOptions{.force = true}, &counts);
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    cpu.push_back(ProcessCpuMs() - cpu_start);
    result.phases = counts;
    result.slices = counts.slices;
    fs::remove(db_path, ec);  // the next run measures a fresh file, and the page cache stays small
  }
  if (error.empty()) error = MeasureFloors(trace, dir + "/floor.db", &result);
  fs::remove_all(dir, ec);
  if (!error.empty()) return MakeUnexpected("SQLite export bench: " + error);
  result.wall_ms = Median(wall);
  result.cpu_ms = Median(cpu);
  return result;
}

}  // namespace stepline::app
