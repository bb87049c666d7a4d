// Database / Query: the one SQLite connection type of Stepline. The Nsight
// loader opens an export read-only, as bytes in memory (sqlite3_deserialize,
// no copy) or as a file (URI mode=ro&immutable=1), and never writes to either;
// the SQLite export opens a new file for writing (OpenForWriting) and fills it
// through Insert (insert.h). Errors of a write sequence are kept as the first
// message (naming the statement) rather than thrown, so a long insert loop
// checks once at the end.
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

namespace stepline::sqlite {

class Database {
 public:
  // Read-only. `bytes` must outlive the database; SQLite reads it in place.
  static Result<Database, std::string> OpenBytes(std::string_view bytes);
  static Result<Database, std::string> OpenFile(const std::string& path);
  // An empty in-memory database, read-only like the others, for virtual
  // tables (query/): eponymous ones need no CREATE, so nothing is written.
  static Result<Database, std::string> OpenMemory();

  // For writing: a closed connection until OpenForWriting() succeeds.
  Database() = default;
  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  // For a private file written in one go (renamed into place when done): no
  // rollback journal, no fsync, 64 KiB pages, one connection.
  static constexpr const char* kBulkWritePragmas =
      "PRAGMA page_size=65536; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE; "
      "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16384;";
  // Opens (creating) `path` read-write for one thread; false with error().
  bool OpenForWriting(const std::string& path);
  bool Exec(const char* sql);  // one or more statements, no results; false (error() kept) on failure
  bool Close();                // false when the final write failed
  const std::string& error() const { return error_; }
  void Fail(std::string_view what);  // records "what: sqlite message" once

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
  sqlite3* db_ = nullptr;
  std::string error_;  // the first failure of a write sequence
};

// One prepared statement, stepped row by row.
class Query {
 public:
  enum class Step : uint8_t { kRow, kDone, kError };

  Query(const Database& db, const std::string& sql);
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;
  ~Query();

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

}  // namespace stepline::sqlite
