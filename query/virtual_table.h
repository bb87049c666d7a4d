// Registers a TableSource as an eponymous-only SQLite virtual table: the
// table exists under its module's name in every schema search, with no
// CREATE VIRTUAL TABLE (so the connection can be read-only from the start).
#pragma once

#include <memory>
#include <string>

#include "query/table_source.h"

struct sqlite3;

namespace stepline::query {

// The connection keeps `source` alive until it closes. False with *error on
// failure.
bool RegisterTable(sqlite3* db, const std::string& name, std::unique_ptr<TableSource> source, std::string* error);

}  // namespace stepline::query
