// CachedTraceLoad: load through the column cache, store after the output.
#include "app/runs/cached_trace_load.h"

#include <new>

#include "app/runs/version.h"
#include "loaders/memory_estimate.h"

namespace stepline::app {

void DisableTraceCache() { column_cache::DisableForProcess(); }

column_cache::CacheSettings CacheSettingsForApp() { return column_cache::SettingsFromEnvironment(Version()); }

Result<Trace, loaders::LoadError>& CachedTraceLoad::Load(const std::string& path, const loaders::LoadOptions& options,
                                                         loaders::LoadProgress* progress) {
  Finish();
  settings_ = CacheSettingsForApp();
  result_.reset();
  try {
    result_.emplace(column_cache::LoadThroughCache(path, settings_, options, progress, &info_));
  } catch (const std::bad_alloc&) {
    // The parse turns its own into a LoadError; this is reading the cache.
    result_.reset();
    info_ = {};
    loaders::ReleaseFreedMemory();
    result_.emplace(MakeUnexpected(loaders::MakeLoadError(
        loaders::LoadErrorCode::kOutOfMemory, path, loaders::LoadError::kNoOffset,
        loaders::OutOfMemoryMessage("loading from the column cache", loaders::EstimateLoadMemory(path)))));
  }
  return *result_;
}

void CachedTraceLoad::Finish() {
  if (result_ && result_->ok() && info_.ticket.store) {
    std::string error;
    const column_cache::StoreTicket ticket = info_.ticket;
    info_.ticket.store = false;
    try {
      column_cache::Store(result_->value(), ticket, settings_, &error);  // a failure costs the next open a parse
    } catch (const std::bad_alloc&) {
      // So does running out of memory, and Finish runs in the destructor,
      // where an exception would be std::terminate.
    }
  }
}

}  // namespace stepline::app
