// ApiCallBatch: the rows of one API-call table (CUPTI runtime/driver calls,
// OS runtime calls) read into plain memory, so the reading can run on a
// second SQLite connection on another thread while the loader builds the
// device tables; the TraceBuilder (single-threaded) then consumes the batch.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loaders/nsys/nsys_table.h"
#include "sqlite/database.h"

namespace stepline::loaders::nsys {

struct ApiCallBatch {
  static constexpr int64_t kNoEnd = INT64_MIN;
  struct Call {
    int64_t start_ns, end_ns;  // end kNoEnd when NULL
    int64_t global_tid;
    int64_t correlation;  // 0 when absent
    int64_t name;         // StringIds id, or (when name_is_text) an index into texts
    bool name_is_text;
  };
  std::vector<Call> calls;
  std::vector<std::string> texts;  // names stored as text (older exports)
  bool columns_ok = false;         // start and globalTid present
  std::string error;               // set when SQLite stopped early (calls keeps the rows before)
  bool cancelled = false;
};

// Reads `table`'s calls over `db` (no TraceBuilder involved: safe on a
// worker thread with its own connection).
ApiCallBatch FetchApiCalls(const sqlite::Database& db, NsysTable table, bool with_correlation);

}  // namespace stepline::loaders::nsys
