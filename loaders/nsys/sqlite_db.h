// SqliteDb / SqliteQuery: a read-only SQLite connection for the Nsight loader
// and the few schema lookups it needs. Opens bytes in memory
// (sqlite3_deserialize, no copy) or a file (URI mode=ro&immutable=1); never
// writes to either. Only loaders/ sees sqlite3.h.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/result.h"

struct sqlite3;
struct sqlite3_stmt;

namespace stepline::loaders::nsys {

class SqliteDb {
 public:
  // `bytes` must outlive the database; SQLite reads it in place.
  static Result<SqliteDb, std::string> OpenBytes(std::string_view bytes);
  static Result<SqliteDb, std::string> OpenFile(const std::string& path);

  SqliteDb(SqliteDb&&) noexcept;
  SqliteDb& operator=(SqliteDb&&) noexcept;
  ~SqliteDb();

  sqlite3* handle() const { return db_; }
  std::string LastError() const;
  // Interrupts long queries once `*cancel` becomes true (null: never).
  void SetCancelFlag(const std::atomic<bool>* cancel);

  // Names of the tables and views; empty with *error set when the schema
  // itself cannot be read (not a database, or a damaged first page).
  std::vector<std::string> TableNames(std::string* error) const;
  // Column names of `table` in declaration order (pragma table_info).
  std::vector<std::string> Columns(std::string_view table) const;

 private:
  SqliteDb() = default;
  sqlite3* db_ = nullptr;
};

// One prepared statement, stepped row by row.
class SqliteQuery {
 public:
  enum class Step : uint8_t { kRow, kDone, kError };

  SqliteQuery(const SqliteDb& db, const std::string& sql);
  SqliteQuery(const SqliteQuery&) = delete;
  SqliteQuery& operator=(const SqliteQuery&) = delete;
  ~SqliteQuery();

  bool ok() const { return stmt_ != nullptr; }  // prepared
  Step Next();
  bool IsNull(int col) const;
  bool IsInteger(int col) const;
  int64_t Int(int col) const;  // 0 for NULL
  double Double(int col) const;
  std::string_view Text(int col) const;  // valid until the next Next()
  std::string Error() const;             // after a failed prepare or kError

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

// "SQLite format 3\0": the first 16 bytes of every SQLite database file.
inline constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// The size the header says the database has (page size x page count), or 0
// when the header does not say (older writers leave the count stale).
uint64_t DeclaredDatabaseBytes(std::string_view head);

// Quotes an identifier for SQL: "name" with inner quotes doubled.
std::string QuoteIdentifier(std::string_view name);
// Quotes a string literal for SQL: 'text' with inner quotes doubled.
std::string QuoteLiteral(std::string_view text);

}  // namespace stepline::loaders::nsys
