// CachedTraceLoad: load through the column cache, store after the output.
#include "app/runs/cached_trace_load.h"

#include "app/runs/version.h"

namespace stepline::app {

void DisableTraceCache() { column_cache::DisableForProcess(); }

column_cache::CacheSettings CacheSettingsForApp() { return column_cache::SettingsFromEnvironment(Version()); }

Result<Trace, loaders::LoadError>& CachedTraceLoad::Load(const std::string& path, const loaders::LoadOptions& options,
                                                         loaders::LoadProgress* progress) {
  Finish();
  settings_ = CacheSettingsForApp();
  result_.emplace(column_cache::LoadThroughCache(path, settings_, options, progress, &info_));
  return *result_;
}

void CachedTraceLoad::Finish() {
  if (result_ && result_->ok() && info_.ticket.store) {
    std::string error;
    column_cache::Store(result_->value(), info_.ticket, settings_, &error);  // a failure costs the next open a parse
    info_.ticket.store = false;
  }
}

}  // namespace stepline::app
