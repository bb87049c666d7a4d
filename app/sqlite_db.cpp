// SqliteDb and SqliteInsert; see sqlite_db.h.
#include "app/sqlite_db.h"

namespace stepline::app {

SqliteDb::~SqliteDb() { Close(); }

void SqliteDb::Fail(std::string_view what) {
  if (!error_.empty()) return;  // the first failure is the cause; later ones follow from it
  error_ = std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory");
}

bool SqliteDb::Open(const std::string& path) {
  // Malloc statistics take a global mutex on every allocation; nobody reads
  // them. Only possible before SQLite initializes, so once per process (a
  // later call is a harmless SQLITE_MISUSE).
  static const bool configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0) == SQLITE_OK;
  (void)configured;
  // One thread uses the connection: no per-call connection mutex.
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    Fail("cannot open " + path);
    return false;
  }
  return true;
}

bool SqliteDb::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) == SQLITE_OK) return true;
  if (error_.empty()) error_ = std::string(message ? message : "error") + " in: " + std::string(sql).substr(0, 80);
  sqlite3_free(message);
  return false;
}

bool SqliteDb::Close() {
  if (!db_) return error_.empty();
  if (sqlite3_close(db_) != SQLITE_OK) Fail("cannot close the database");
  db_ = nullptr;
  return error_.empty();
}

SqliteInsert::SqliteInsert(SqliteDb* db, const char* table, int columns)
    : db_(db), table_(table), columns_(columns), cells_(size_t(kRowsPerStatement * columns)) {
  full_ = Prepare(kRowsPerStatement);
  failed_ = full_ == nullptr;
}

SqliteInsert::~SqliteInsert() {
  Finish();
  sqlite3_finalize(full_);
}

sqlite3_stmt* SqliteInsert::Prepare(int rows) {
  std::string row = "(?";
  for (int c = 1; c < columns_; ++c) row += ",?";
  row += ")";
  std::string sql = "INSERT INTO " + table_ + " VALUES" + row;
  for (int r = 1; r < rows; ++r) sql += "," + row;
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_->handle(), sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    db_->Fail("cannot prepare the insert into " + table_);
    return nullptr;
  }
  return stmt;
}

bool SqliteInsert::Flush() {
  if (pending_ == 0 || failed_) return !failed_;
  sqlite3_stmt* stmt = pending_ == kRowsPerStatement ? full_ : Prepare(pending_);
  if (!stmt) {
    failed_ = true;
    return false;
  }
  for (int i = 0; i < pending_ * columns_; ++i) {
    const Value& v = cells_[size_t(i)];
    switch (v.type) {
      case CellType::kNull: sqlite3_bind_null(stmt, i + 1); break;
      case CellType::kInt: sqlite3_bind_int64(stmt, i + 1, v.i); break;
      case CellType::kReal: sqlite3_bind_double(stmt, i + 1, v.d); break;
      case CellType::kText:
        sqlite3_bind_text(stmt, i + 1, v.text.data(), static_cast<int>(v.text.size()), SQLITE_STATIC);
        break;
    }
  }
  const int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (stmt != full_) sqlite3_finalize(stmt);
  pending_ = 0;
  owned_.clear();
  if (rc != SQLITE_DONE) {
    db_->Fail("cannot insert into " + table_);
    failed_ = true;
  }
  return !failed_;
}

bool SqliteInsert::Row() {
  if (failed_) return false;
  if (++pending_ == kRowsPerStatement) return Flush();
  return true;
}

bool SqliteInsert::Finish() { return Flush(); }

}  // namespace stepline::app
