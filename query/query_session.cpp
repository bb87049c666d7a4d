// The query connection; see query_session.h.
#include "query/query_session.h"

#include <sqlite3.h>

#include <cstdio>
#include <cstdlib>

#include "query/analysis_tables.h"
#include "query/model_tables.h"
#include "query/virtual_table.h"
#include "sqlite/database.h"

namespace stepline::query {
namespace {

// ATTACH would let a query open other files; nothing else is refused here
// (writes fail by query_only, and the virtual tables have no xUpdate).
int Authorize(void*, int action, const char*, const char*, const char*, const char*) {
  return action == SQLITE_ATTACH || action == SQLITE_DETACH ? SQLITE_DENY : SQLITE_OK;
}

}  // namespace

struct QuerySession::Connection {
  sqlite::Database db;
};

QuerySession::QuerySession(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {}
QuerySession::~QuerySession() = default;

void QuerySession::SetCancelFlag(const std::atomic<bool>* cancel) { connection_->db.SetCancelFlag(cancel); }

const std::vector<std::string>& TableNames() {
  static const std::vector<std::string> names = {"track", "slice", "instant", "flow", "counter", "arg", "step",
                                                 "step_breakdown", "gap", "op_stat", "kernel_stat"};
  return names;
}

Result<std::unique_ptr<QuerySession>, std::string> QuerySession::Open(const Trace& trace) {
  auto db = sqlite::Database::OpenMemory();
  if (!db) return MakeUnexpected(db.error());
  sqlite3* handle = db->handle();
  std::string error;
  std::vector<std::pair<std::string, std::unique_ptr<TableSource>>> sources;
  sources.emplace_back("track", MakeTrackSource(trace));
  sources.emplace_back("slice", MakeSliceSource(trace));
  sources.emplace_back("instant", MakeInstantSource(trace));
  sources.emplace_back("flow", MakeFlowSource(trace));
  sources.emplace_back("counter", MakeCounterSource(trace));
  sources.emplace_back("arg", MakeArgSource(trace));
  for (auto& analysis : MakeAnalysisSources(trace)) sources.push_back(std::move(analysis));
  for (auto& [name, source] : sources) {
    if (!RegisterTable(handle, name, std::move(source), &error)) return MakeUnexpected(error);
  }
  sqlite3_set_authorizer(handle, Authorize, nullptr);
  auto connection = std::make_unique<Connection>(Connection{std::move(db).value()});
  return std::unique_ptr<QuerySession>(new QuerySession(std::move(connection)));
}

Result<QueryResult, std::string> QuerySession::Run(std::string_view sql, size_t max_rows) const {
  sqlite3* db = connection_->db.handle();
  QueryResult result;
  const char* at = sql.data();
  const char* const end = sql.data() + sql.size();
  bool ran = false;
  while (at < end) {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(db, at, static_cast<int>(end - at), &stmt, &tail) != SQLITE_OK) {
      return MakeUnexpected(std::string(sqlite3_errmsg(db)));
    }
    at = tail;
    if (stmt == nullptr) continue;  // whitespace or a comment
    if (!sqlite3_stmt_readonly(stmt)) {
      sqlite3_finalize(stmt);
      return MakeUnexpected(std::string("read-only: the trace's tables cannot be changed"));
    }
    ran = true;
    QueryResult current;
    const int columns = sqlite3_column_count(stmt);
    for (int c = 0; c < columns; ++c) current.columns.emplace_back(sqlite3_column_name(stmt, c));
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (current.rows.size() >= max_rows) {
        current.truncated = true;
        break;
      }
      std::vector<Value>& row = current.rows.emplace_back();
      row.reserve(static_cast<size_t>(columns));
      for (int c = 0; c < columns; ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_INTEGER: row.emplace_back(int64_t{sqlite3_column_int64(stmt, c)}); break;
          case SQLITE_FLOAT: row.emplace_back(sqlite3_column_double(stmt, c)); break;
          case SQLITE_NULL: row.emplace_back(std::monostate{}); break;
          default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            row.emplace_back(std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
          }
        }
      }
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      std::string message = sqlite3_errmsg(db);
      sqlite3_finalize(stmt);
      return MakeUnexpected(std::move(message));
    }
    sqlite3_finalize(stmt);
    result = std::move(current);
  }
  if (!ran) return MakeUnexpected(std::string("no SQL statement"));
  return result;
}

std::string ValueText(const Value& v) {
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", *d);
    // The shortest text that reads back the same, as SQLite prints reals.
    for (int digits = 1; digits < 17; ++digits) {
      char shorter[40];
      std::snprintf(shorter, sizeof shorter, "%.*g", digits, *d);
      if (std::strtod(shorter, nullptr) == *d) return shorter;
    }
    return text;
  }
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return "";
}

}  // namespace stepline::query
