// The MCP server's trace cache; see trace_cache.h.
#include "app/mcp/trace_cache.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "app/output/report_document.h"
#include "loaders/load.h"

namespace stepline::app {

Result<LoadedTrace*, std::string> TraceCache::Get(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return MakeUnexpected(path + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return MakeUnexpected(path + ": not a trace file");
  const int64_t mtime_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
  const auto size = static_cast<uint64_t>(st.st_size);
  auto it = entries_.find(path);
  if (it != entries_.end() && it->second->mtime_ns == mtime_ns && it->second->size == size) return it->second.get();

  auto entry = std::make_unique<LoadedTrace>();
  entry->path = path;
  entry->mtime_ns = mtime_ns;
  entry->size = size;
  ++loads_;
  auto& loaded = entry->load.Load(path);
  if (!loaded) return MakeUnexpected(loaded.error().ToString());
  entry->load.Finish();  // the column cache entry, now rather than at exit
  entry->trace = &loaded.value();
  entry->analysis = analysis::ComputeAnalysis(*entry->trace, {});
  entry->report = analysis::ResolveReport(*entry->trace, entry->analysis);
  std::ostringstream json;
  WriteReportJsonDocument(*entry->trace, entry->analysis, entry->report, path, json);
  auto parsed = ParseJson(json.str());
  if (!parsed) return MakeUnexpected(path + ": internal error: the report JSON does not parse");
  entry->report_json = std::move(*parsed);
  LoadedTrace* raw = entry.get();
  entries_[path] = std::move(entry);
  return raw;
}

}  // namespace stepline::app
