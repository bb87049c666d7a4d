// The column cache's policy: where cache files live, which traces get one,
// how a trace file is keyed, when an entry is used, rebuilt or evicted.
// Every command that opens a trace goes through LoadThroughCache() and, once
// its output is out (or, in the window, on a background thread), Store().
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "loaders/column_cache/cache_file.h"
#include "loaders/load.h"

namespace stepline::column_cache {

struct CacheSettings {
  bool enabled = true;
  std::string dir;                                 // empty: no cache (no home to put it in)
  uint64_t max_bytes = uint64_t{20} << 30;         // total cap; least recently used evicted past it
  uint64_t min_trace_bytes = uint64_t{50} << 20;   // smaller traces load fast anyway
  std::string stepline_version;                    // written to and checked against each file
};

// Settings from the environment: STEPLINE_CACHE_DIR, else
// $XDG_CACHE_HOME/stepline, else ~/.cache/stepline; STEPLINE_CACHE_MAX_GB;
// STEPLINE_CACHE_MIN_MB (the decompressed size under which traces skip the cache, e.g. 0
// in tests); STEPLINE_NO_CACHE=1 or DisableForProcess() turn it off.
CacheSettings SettingsFromEnvironment(std::string_view stepline_version);
// `--no-cache`: later SettingsFromEnvironment() calls return enabled = false.
void DisableForProcess();

// The key of `path` as it is on disk now (size, mtime, ctime and inode, and
// a hash of the first and last MiB).
// False when the file cannot be read.
bool ComputeKey(const std::string& path, TraceKey* key);
// The cache file that stands for `path` (named by the hash of its absolute path).
std::string CacheFilePath(const CacheSettings& settings, const std::string& path);

// How LoadThroughCache went, for messages, tests and benchmarks.
enum class CacheOutcome : uint8_t {
  kDisabled,   // off, no directory, or the trace (decompressed) is under the size threshold
  kHit,        // mapped from the cache
  kMiss,       // no entry: parsed, and Store() should write one
  kRejected,   // an entry that did not match (changed trace, version, damage): deleted, parsed
};
std::string_view CacheOutcomeName(CacheOutcome outcome);

// What Store() needs to write the entry of a trace that was parsed.
struct StoreTicket {
  bool store = false;       // true after kMiss / kRejected of a loaded trace
  std::string cache_path;
  TraceKey key;
};

struct CachedLoad {
  CacheOutcome outcome = CacheOutcome::kDisabled;
  std::string reject_reason;  // for kRejected
  StoreTicket ticket;
};

// Loads `path` from its cache entry when a valid one exists, else parses it
// with loaders::LoadFile. A cache is used only with default load options
// (args kept); `info` says what happened.
Result<Trace, loaders::LoadError> LoadThroughCache(const std::string& path, const CacheSettings& settings,
                                          const loaders::LoadOptions& options, loaders::LoadProgress* progress,
                                          CachedLoad* info);

// Writes the entry of a parsed trace: temporary name, then rename; then
// evicts least recently used entries past the cap. Safe to run while other
// processes read or write the same entry. False (with `error`) on failure.
bool Store(const Trace& trace, const StoreTicket& ticket, const CacheSettings& settings, std::string* error);

// Deletes every cache file (and stray temporaries) in the cache directory;
// returns how many bytes were freed.
uint64_t ClearCache(const CacheSettings& settings);

// Sum of the cache files' sizes.
uint64_t CacheBytes(const CacheSettings& settings);

// Writes entries on threads of its own (the window: the trace is usable
// while its entry is written). The destructor waits for every write.
class BackgroundStore {
 public:
  BackgroundStore() = default;
  BackgroundStore(const BackgroundStore&) = delete;
  BackgroundStore& operator=(const BackgroundStore&) = delete;
  ~BackgroundStore();
  void Start(std::shared_ptr<const Trace> trace, StoreTicket ticket, CacheSettings settings);

 private:
  std::vector<std::thread> threads_;
};

}  // namespace stepline::column_cache
