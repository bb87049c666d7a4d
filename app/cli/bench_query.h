// `stepline bench FILE --query`: the speed of SQL over the loaded trace
// (query/query_session.h): full scans of `slice` (the target is 20 M rows/s
// on one core) and the export's documented queries, CPU time of the one
// thread that runs them.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "model/trace.h"

namespace stepline::app {

struct QueryBenchRow {
  std::string label, sql;
  uint64_t rows_scanned = 0;  // slices, for the scans; 0 otherwise
  double cpu_ms = 0, wall_ms = 0;  // medians
  size_t result_rows = 0;
};

// Runs each query `repeat` times after one warm-up run; "" or an error.
std::string MeasureQueries(const Trace& trace, int repeat, std::vector<QueryBenchRow>* rows);
void WriteQueryBenchText(const std::vector<QueryBenchRow>& rows, std::ostream& out);
void WriteQueryBenchJson(const std::vector<QueryBenchRow>& rows, std::ostream& out);

}  // namespace stepline::app
