// Database and Query; see database.h.
#include "sqlite/database.h"

#include <sqlite3.h>

#include <utility>

namespace stepline::sqlite {
namespace {

// Every connection is read-only and refuses writes even through a query
// (query_only); corrupt files must fail, never be "repaired".
void HardenConnection(sqlite3* db) {
  sqlite3_exec(db, "PRAGMA query_only=1", nullptr, nullptr, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
}

int CancelCheck(void* flag) {
  return static_cast<const std::atomic<bool>*>(flag)->load(std::memory_order_relaxed) ? 1 : 0;
}

uint32_t BigEndian(std::string_view s, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}

}  // namespace

Result<Database, std::string> Database::OpenBytes(std::string_view bytes) {
  Database out;
  // NOMUTEX: one connection per load, used by one thread; the per-call mutex
  // of serialized mode was 15% of a large load.
  if (sqlite3_open_v2(":memory:", &out.db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    return MakeUnexpected(std::string("cannot create an SQLite connection: ") + sqlite3_errmsg(out.db_));
  }
  // READONLY: SQLite reads the caller's bytes in place and never writes or
  // frees them (no FREEONCLOSE, no RESIZEABLE).
  auto* data = reinterpret_cast<unsigned char*>(const_cast<char*>(bytes.data()));
  const auto size = static_cast<sqlite3_int64>(bytes.size());
  if (sqlite3_deserialize(out.db_, "main", data, size, size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK) {
    return MakeUnexpected(std::string("SQLite cannot open the bytes: ") + sqlite3_errmsg(out.db_));
  }
  HardenConnection(out.db_);
  return out;
}

Result<Database, std::string> Database::OpenMemory() {
  Database out;
  if (sqlite3_open_v2(":memory:", &out.db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    return MakeUnexpected(std::string("cannot create an SQLite connection: ") + sqlite3_errmsg(out.db_));
  }
  HardenConnection(out.db_);
  return out;
}

Result<Database, std::string> Database::OpenFile(const std::string& path) {
  Database out;
  // immutable=1: no locks and no journal lookups, so a read-only share or a
  // file being copied is never touched.
  std::string uri = "file:";
  for (char c : path) {
    if (c == '?' || c == '#' || c == '%') {
      static const char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[static_cast<unsigned char>(c) >> 4];
      uri += kHex[static_cast<unsigned char>(c) & 15];
    } else {
      uri += c;
    }
  }
  uri += "?mode=ro&immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &out.db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr) !=
      SQLITE_OK) {
    return MakeUnexpected(std::string("SQLite cannot open the file read-only: ") + sqlite3_errmsg(out.db_));
  }
  HardenConnection(out.db_);
  return out;
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), error_(std::move(other.error_)) {}
Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    error_ = std::move(other.error_);
  }
  return *this;
}
Database::~Database() {
  if (db_) sqlite3_close_v2(db_);
}

void Database::Fail(std::string_view what) {
  if (!error_.empty()) return;  // the first failure is the cause; later ones follow from it
  error_ = std::string(what) + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory");
}

bool Database::OpenForWriting(const std::string& path) {
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

bool Database::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) == SQLITE_OK) return true;
  if (error_.empty()) error_ = std::string(message ? message : "error") + " in: " + std::string(sql).substr(0, 80);
  sqlite3_free(message);
  return false;
}

bool Database::Close() {
  if (!db_) return error_.empty();
  if (sqlite3_close(db_) != SQLITE_OK) Fail("cannot close the database");
  db_ = nullptr;
  return error_.empty();
}

std::string Database::LastError() const { return db_ ? sqlite3_errmsg(db_) : "no connection"; }

void Database::SetCancelFlag(const std::atomic<bool>* cancel) {
  // Every ~10k virtual-machine steps: cheap, and a cancel lands within a few ms.
  if (cancel) sqlite3_progress_handler(db_, 10000, CancelCheck, const_cast<std::atomic<bool>*>(cancel));
}

std::vector<std::string> Database::TableNames(std::string* error) const {
  std::vector<std::string> names;
  Query q(*this, "SELECT name FROM sqlite_master WHERE type IN ('table','view')");
  if (!q.ok()) {
    *error = q.Error();
    return names;
  }
  for (;;) {
    const Query::Step s = q.Next();
    if (s == Query::Step::kRow) {
      names.emplace_back(q.Text(0));
      continue;
    }
    if (s == Query::Step::kError) *error = q.Error();
    break;
  }
  return names;
}

std::vector<std::string> Database::Columns(std::string_view table) const {
  std::vector<std::string> cols;
  Query q(*this, "SELECT name FROM pragma_table_info(" + QuoteLiteral(table) + ")");
  if (!q.ok()) return cols;
  while (q.Next() == Query::Step::kRow) cols.emplace_back(q.Text(0));
  return cols;
}

Query::Query(const Database& db, const std::string& sql) : db_(db.handle()) {
  if (sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size()), &stmt_, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
  }
}

Query::~Query() { sqlite3_finalize(stmt_); }

Query::Step Query::Next() {
  if (!stmt_) return Step::kError;
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return Step::kRow;
  if (rc == SQLITE_DONE) return Step::kDone;
  return Step::kError;
}

bool Query::IsNull(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
bool Query::IsInteger(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_INTEGER; }
int64_t Query::Int(int col) const { return sqlite3_column_int64(stmt_, col); }
double Query::Double(int col) const { return sqlite3_column_double(stmt_, col); }
std::string_view Query::Text(int col) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  return text ? std::string_view(text, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))) : std::string_view();
}
std::string Query::Error() const { return sqlite3_errmsg(db_); }

uint64_t DeclaredDatabaseBytes(std::string_view head) {
  // File format: page size at offset 16 (2 bytes, 1 = 65536), page count at
  // 28, valid only when the change counter (24) equals version-valid-for (92).
  if (head.size() < 100 || !head.starts_with(kSqliteMagic)) return 0;
  uint64_t page_size = BigEndian(head, 16, 2);
  if (page_size == 1) page_size = 65536;
  if (page_size < 512 || (page_size & (page_size - 1)) != 0) return 0;
  if (BigEndian(head, 24, 4) != BigEndian(head, 92, 4)) return 0;
  return page_size * BigEndian(head, 28, 4);
}

namespace {
std::string Quote(std::string_view text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    out += c;
    if (c == quote) out += quote;
  }
  return out + quote;
}
}  // namespace

std::string QuoteIdentifier(std::string_view name) { return Quote(name, '"'); }
std::string QuoteLiteral(std::string_view text) { return Quote(text, '\''); }

}  // namespace stepline::sqlite
