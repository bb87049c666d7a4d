// The printed forms of a query result (query/query_session.h) for `stepline
// query` and the window's Query tab: an aligned text table, CSV (header and
// rows, the UI's quoting), and one JSON object.
#pragma once

#include <iosfwd>
#include <string>

#include "query/query_session.h"

namespace stepline::app {

// Columns padded to their widest shown value (cut at 60 characters with
// "..."), numbers right-aligned; NULL prints as "NULL"; then "(N rows)".
void WriteQueryTable(const query::QueryResult& r, std::ostream& out);
// RFC 4180 quoting; NULL is an empty field.
void AppendQueryCsv(const query::QueryResult& r, std::string* out);
// {"columns": [...], "rows": [[...], ...], "row_count": N, "truncated": bool};
// integers and reals as JSON numbers, NULL as null.
void WriteQueryJson(const query::QueryResult& r, std::ostream& out);

}  // namespace stepline::app
