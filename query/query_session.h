// QuerySession: SQL over one loaded trace, with no export. An in-memory
// SQLite connection (sqlite/database.h) whose tables are the virtual tables
// of model_tables.h and analysis_tables.h, with the export's names and
// columns, so the export's documented queries run unchanged. Read-only: the
// connection refuses writes (query_only) and ATTACH.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "model/result.h"
#include "model/trace.h"

namespace stepline::query {

// One result value, as SQLite typed it.
using Value = std::variant<std::monostate, int64_t, double, std::string>;

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<std::vector<Value>> rows;  // at most max_rows
  bool truncated = false;                // more rows existed
};

// The table names, in the export's order.
const std::vector<std::string>& TableNames();

class QuerySession {
 public:
  // `trace` must outlive the session.
  static Result<std::unique_ptr<QuerySession>, std::string> Open(const Trace& trace);

  // Runs `sql` (one statement, or several separated by ';' of which the
  // last one's rows are returned). Errors are SQLite's message.
  Result<QueryResult, std::string> Run(std::string_view sql, size_t max_rows) const;
  // Stops a running query from another thread (the window's cancel).
  void SetCancelFlag(const std::atomic<bool>* cancel);

  ~QuerySession();

 private:
  struct Connection;  // the sqlite::Database, kept out of this header's includes
  explicit QuerySession(std::unique_ptr<Connection> connection);
  std::unique_ptr<Connection> connection_;
};

// Values as text: NULL is "", reals with up to 17 significant digits (as
// SQLite's own CLI prints them in full).
std::string ValueText(const Value& v);

}  // namespace stepline::query
