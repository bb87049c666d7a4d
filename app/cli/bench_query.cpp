// Timing queries over a loaded trace; see bench_query.h.
#include "app/cli/bench_query.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <ostream>

#include "app/output/json_writer.h"
#include "app/output/text_format.h"
#include "app/runs/timing.h"
#include "query/query_session.h"

namespace stepline::app {
namespace {

// The calling thread's CPU time: the query runs on it alone, and on a shared
// machine wall time measures the neighbours too.
double QueryThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

struct QueryBenchSpec {
  const char* label;
  const char* sql;
  bool scans_slices;
};

// The scans read nothing (count), one integer column, and one text column;
// then the README's three export queries, unchanged.
constexpr QueryBenchSpec kBenchQueries[] = {
    {"scan count", "SELECT count(*) FROM slice", true},
    {"scan sum(dur)", "SELECT sum(dur) FROM slice", true},
    {"scan max(name)", "SELECT max(name) FROM slice", true},
    {"top-kernels",
     "SELECT name, count(*) AS launches, sum(dur) AS total_ns FROM slice WHERE gpu_kind IN ('kernel', 'collective') "
     "GROUP BY name ORDER BY total_ns DESC, name LIMIT 10",
     false},
    {"long-gaps",
     "SELECT g.device_name, g.ts, g.dur, g.cause, g.blamed_event, s.name AS step FROM gap g LEFT JOIN step s ON "
     "s.id = g.step_id WHERE g.dur > 1000000 ORDER BY g.dur DESC",
     false},
    {"nccl-per-step",
     "SELECT s.id, s.name, coalesce(b.dur, 0) AS nccl_ns FROM step s LEFT JOIN step_breakdown b ON b.step_id = s.id "
     "AND b.is_primary = 1 AND b.category = 'collective' ORDER BY s.id",
     false},
};

}  // namespace

std::string MeasureQueries(const Trace& trace, int repeat, std::vector<QueryBenchRow>* rows) {
  // The analysis tables compute the report on first use: a session per
  // query and a warm-up run keep that out of the timed runs... except the
  // first run of a fresh session, which the warm-up absorbs.
  auto session = query::QuerySession::Open(trace);
  if (!session) return session.error();
  for (const QueryBenchSpec& q : kBenchQueries) {
    QueryBenchRow row;
    row.label = q.label;
    row.sql = q.sql;
    row.rows_scanned = q.scans_slices ? trace.slices().size() : 0;
    std::vector<double> cpu, wall;
    for (int i = 0; i <= repeat; ++i) {
      const double cpu_start = QueryThreadCpuMs();
      const auto wall_start = std::chrono::steady_clock::now();
      auto result = (*session)->Run(q.sql, 1000);
      if (!result) return std::string(q.label) + ": " + result.error();
      if (i == 0) continue;  // warm-up
      cpu.push_back(QueryThreadCpuMs() - cpu_start);
      wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count());
      row.result_rows = result->rows.size();
    }
    row.cpu_ms = Median(cpu);
    row.wall_ms = Median(wall);
    rows->push_back(row);
  }
  return "";
}

void WriteQueryBenchText(const std::vector<QueryBenchRow>& rows, std::ostream& out) {
  for (const QueryBenchRow& r : rows) {
    out << "query    " << PadCell(r.label, 15, false) << PadCell(FormatFixed(r.cpu_ms, 1), 9, true) << " ms CPU "
        << PadCell(FormatFixed(r.wall_ms, 1), 9, true) << " ms wall";
    if (r.rows_scanned > 0 && r.cpu_ms > 0) {
      out << "  " << FormatFixed(static_cast<double>(r.rows_scanned) / r.cpu_ms / 1e3, 1) << " M rows/s (CPU)";
    } else {
      out << "  " << r.result_rows << (r.result_rows == 1 ? " row" : " rows");
    }
    out << "\n";
  }
}

void WriteQueryBenchJson(const std::vector<QueryBenchRow>& rows, std::ostream& out) {
  JsonWriter json;
  json.BeginObject();
  json.Key("queries").BeginArray();
  for (const QueryBenchRow& r : rows) {
    json.BeginObject();
    json.Field("label", r.label);
    json.Field("sql", r.sql);
    json.FieldFixed("cpu_ms", r.cpu_ms, 3);
    json.FieldFixed("wall_ms", r.wall_ms, 3);
    json.Field("rows_scanned", r.rows_scanned);
    json.FieldFixed("rows_per_s_cpu", r.cpu_ms > 0 ? static_cast<double>(r.rows_scanned) / r.cpu_ms * 1e3 : 0, 0);
    json.Field("result_rows", uint64_t{r.result_rows});
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  out << json.text() << "\n";
}

}  // namespace stepline::app
