// CachedTraceLoad: how a CLI command opens a trace. It loads through the
// column cache and, when the trace was parsed, writes the cache entry when it
// goes out of scope, i.e. after the command printed its output.
#pragma once

#include <optional>
#include <string>

#include "loaders/column_cache/trace_cache.h"
#include "loaders/load.h"

namespace stepline::app {

class CachedTraceLoad {
 public:
  CachedTraceLoad() = default;
  CachedTraceLoad(const CachedTraceLoad&) = delete;
  CachedTraceLoad& operator=(const CachedTraceLoad&) = delete;
  ~CachedTraceLoad() { Finish(); }

  // The result lives in this object; keep it in scope while the trace is used.
  // `progress` (optional) reports and cancels a parse.
  Result<Trace, loaders::LoadError>& Load(const std::string& path, const loaders::LoadOptions& options = {},
                                          loaders::LoadProgress* progress = nullptr);
  // Writes the pending cache entry now (the destructor does it otherwise).
  void Finish();
  const column_cache::CachedLoad& info() const { return info_; }

 private:
  std::optional<Result<Trace, loaders::LoadError>> result_;
  column_cache::CachedLoad info_;
  column_cache::CacheSettings settings_;
};

// The cache settings of this process (environment, --no-cache).
column_cache::CacheSettings CacheSettingsForApp();
// `--no-cache`: this process neither reads nor writes the column cache.
void DisableTraceCache();

}  // namespace stepline::app
