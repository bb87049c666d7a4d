// The MCP server's loaded traces: one entry per path, kept between calls and
// loaded again only when the file's modification time or size changed. An
// entry holds the trace, its analysis and report, the report's --json
// document parsed (the tools answer with its members), and a query session
// made on first use.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "app/runs/cached_trace_load.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"
#include "model/json_value.h"
#include "model/result.h"
#include "query/query_session.h"

namespace stepline::app {

struct LoadedTrace {
  std::string path;
  int64_t mtime_ns = 0;
  uint64_t size = 0;
  CachedTraceLoad load;  // owns the Trace
  const Trace* trace = nullptr;
  analysis::TraceAnalysis analysis;
  analysis::Report report;  // views into *trace
  JsonValue report_json;    // `stepline report PATH --json`, parsed
  std::unique_ptr<query::QuerySession> query;  // on first query
};

class TraceCache {
 public:
  // The entry of `path`, loading it when new or changed; an error message
  // for a missing file, a directory or a trace that fails to load.
  Result<LoadedTrace*, std::string> Get(const std::string& path);
  size_t loads() const { return loads_; }  // how many loads happened (tests check the cache)

 private:
  std::map<std::string, std::unique_ptr<LoadedTrace>> entries_;
  size_t loads_ = 0;
};

}  // namespace stepline::app
