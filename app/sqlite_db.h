// A thin RAII layer over libsqlite3 for the SQLite export: an open database
// and prepared statements with positional binds. Errors are kept as the first
// message (naming the statement) rather than thrown, so a long insert loop
// checks once at the end.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace stepline::app {

class SqliteDb {
 public:
  SqliteDb() = default;
  ~SqliteDb();
  SqliteDb(const SqliteDb&) = delete;
  SqliteDb& operator=(const SqliteDb&) = delete;

  // For a private file written in one go (renamed into place when done): no
  // rollback journal, no fsync, 64 KiB pages, one connection.
  static constexpr const char* kBulkWritePragmas =
      "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
      "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384;";

  bool Open(const std::string& path);  // creates the file's schema-less database
  bool Exec(const char* sql);          // one or more statements, no results
  bool Close();                        // false when the final write failed
  sqlite3* handle() const { return db_; }
  const std::string& error() const { return error_; }
  void Fail(std::string_view what);    // records "what: sqlite message" once

 private:
  sqlite3* db_ = nullptr;
  std::string error_;
};

// Rows for one table, inserted kRowsPerStatement at a time through one
// multi-row INSERT (per-statement overhead dominates narrow rows). Values
// are bound column by column (1-based) into the current row; Row() ends it.
// Text() is not copied: it must stay valid until Finish() (StringPool views
// do); OwnedText() keeps its string until the rows holding it are inserted.
class SqliteInsert {
 public:
  static constexpr int kRowsPerStatement = 64;
  SqliteInsert(SqliteDb* db, const char* table, int columns);
  ~SqliteInsert();  // Finish()es
  SqliteInsert(const SqliteInsert&) = delete;
  SqliteInsert& operator=(const SqliteInsert&) = delete;

  void Int(int column, int64_t v) { Cell(column) = {CellType::kInt, v, 0, {}}; }
  void Real(int column, double v) { Cell(column) = {CellType::kReal, 0, v, {}}; }
  void Text(int column, std::string_view v) { Cell(column) = {CellType::kText, 0, 0, v}; }
  // Text made for the row (a number's digits): kept here until the row is run.
  void OwnedText(int column, std::string v) { Text(column, owned_.emplace_back(std::move(v))); }
  void Null(int column) { Cell(column) = {CellType::kNull, 0, 0, {}}; }
  // A name that may be absent: NULL for "".
  void TextOrNull(int column, std::string_view v) { v.empty() ? Null(column) : Text(column, v); }
  bool Row();     // false (error recorded on the db) once an insert failed
  bool Finish();  // inserts the rows still buffered

 private:
  enum class CellType : uint8_t { kNull, kInt, kReal, kText };
  struct Value {
    CellType type = CellType::kNull;
    int64_t i = 0;
    double d = 0;
    std::string_view text;
  };
  Value& Cell(int column) { return cells_[size_t(pending_ * columns_ + column - 1)]; }
  sqlite3_stmt* Prepare(int rows);
  bool Flush();

  SqliteDb* db_;
  std::string table_;
  int columns_;
  int pending_ = 0;  // rows buffered in cells_
  std::vector<Value> cells_;
  std::deque<std::string> owned_;  // OwnedText() of the buffered rows; a deque: appending moves none
  sqlite3_stmt* full_ = nullptr;  // kRowsPerStatement rows
  bool failed_ = false;
};

}  // namespace stepline::app
