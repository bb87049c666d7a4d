// Column cache policy: settings, keys, load-through, atomic store, LRU eviction.
#include "loaders/column_cache/trace_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <new>

#include "loaders/posix_io.h"

namespace stepline::column_cache {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSuffix = ".slcache";
constexpr std::string_view kTempMarker = ".slcache.tmp.";
constexpr uint64_t kEdgeBytes = uint64_t{1} << 20;

std::atomic<bool> g_disabled{false};

double EnvNumber(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  return end != v && d >= 0 ? d : fallback;
}

std::string AbsolutePath(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  return ec ? path : abs.lexically_normal().string();
}

bool IsCacheFile(const fs::path& p) { return p.filename().string().ends_with(kSuffix); }
bool IsTempFile(const fs::path& p) { return p.filename().string().find(kTempMarker) != std::string::npos; }

// Deletes the least recently used entries (file mtime: written or last hit)
// until the directory is under the cap.
void Evict(const CacheSettings& settings) {
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(settings.dir, ec)) {
    std::error_code e2;
    if (!IsCacheFile(de.path()) || !de.is_regular_file(e2)) continue;
    const uint64_t bytes = de.file_size(e2);
    if (e2) continue;
    entries.push_back({de.path(), de.last_write_time(e2), bytes});
    total += bytes;
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= settings.max_bytes) break;
    std::error_code e2;
    if (fs::remove(e.path, e2)) total -= e.bytes;
  }
}

}  // namespace

CacheSettings SettingsFromEnvironment(std::string_view stepline_version) {
  CacheSettings s;
  s.stepline_version = std::string(stepline_version);
  const char* no_cache = std::getenv("STEPLINE_NO_CACHE");
  s.enabled = !g_disabled.load() && !(no_cache != nullptr && *no_cache != '\0' && std::string_view(no_cache) != "0");
  if (const char* d = std::getenv("STEPLINE_CACHE_DIR"); d != nullptr && *d != '\0') {
    s.dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x == '/') {
    s.dir = std::string(x) + "/stepline";
  } else if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    s.dir = std::string(h) + "/.cache/stepline";
  }
  s.max_bytes = static_cast<uint64_t>(EnvNumber("STEPLINE_CACHE_MAX_GB", 20.0) * double(uint64_t{1} << 30));
  s.min_trace_bytes = static_cast<uint64_t>(EnvNumber("STEPLINE_CACHE_MIN_MB", 50.0) * double(uint64_t{1} << 20));
  return s;
}

void DisableForProcess() { g_disabled = true; }

bool ComputeKey(const std::string& path, TraceKey* key) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (ok) {
    key->size = static_cast<uint64_t>(st.st_size);
    key->mtime_ns = int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec;
    key->ctime_ns = int64_t{st.st_ctim.tv_sec} * 1'000'000'000 + st.st_ctim.tv_nsec;
    key->inode = static_cast<uint64_t>(st.st_ino);
    const uint64_t head = std::min(kEdgeBytes, key->size);
    const uint64_t tail = std::min(kEdgeBytes, key->size - head);
    std::vector<char> buf(head + tail);
    ok = loaders::ReadAllAt(fd, buf.data(), head, 0) && loaders::ReadAllAt(fd, buf.data() + head, tail, key->size - tail);
    key->edge_hash = HashBytes(buf.data(), buf.size(), key->size);
    const std::string abs = AbsolutePath(path);
    key->path_hash = HashBytes(abs.data(), abs.size(), 7);
  }
  close(fd);
  return ok;
}

std::string CacheFilePath(const CacheSettings& settings, const std::string& path) {
  const std::string abs = AbsolutePath(path);
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(HashBytes(abs.data(), abs.size(), 7)));
  return settings.dir + "/" + name + std::string(kSuffix);
}

std::string_view CacheOutcomeName(CacheOutcome outcome) {
  switch (outcome) {
    case CacheOutcome::kDisabled: return "disabled";
    case CacheOutcome::kHit: return "hit";
    case CacheOutcome::kMiss: return "miss";
    case CacheOutcome::kRejected: return "rejected";
  }
  return "?";
}

Result<Trace, loaders::LoadError> LoadThroughCache(const std::string& path, const CacheSettings& settings,
                                          const loaders::LoadOptions& options, loaders::LoadProgress* progress,
                                          CachedLoad* info) {
  *info = CachedLoad{};
  TraceKey key;
  if (!settings.enabled || settings.dir.empty() || !options.keep_args || !ComputeKey(path, &key)) {
    return loaders::LoadFile(path, options, progress);
  }
  const std::string cache_path = CacheFilePath(settings, path);
  struct stat st {};
  if (stat(cache_path.c_str(), &st) == 0) {
    auto cached = ReadCacheFile(cache_path, key, settings.stepline_version);
    if (cached.ok()) {
      info->outcome = CacheOutcome::kHit;
      Trace trace = std::move(cached).value();
      trace.mutable_info().source_path = path;  // as given this time, like a parse would say
      utimensat(AT_FDCWD, cache_path.c_str(), nullptr, 0);  // most recently used
      if (progress != nullptr) {
        progress->bytes_total = trace.info().input_bytes;
        progress->bytes_done = trace.info().input_bytes;
      }
      return trace;
    }
    info->outcome = CacheOutcome::kRejected;
    info->reject_reason = cached.error();
    unlink(cache_path.c_str());
  } else {
    info->outcome = CacheOutcome::kMiss;
  }
  auto loaded = loaders::LoadFile(path, options, progress);
  // Small traces load fast anyway. The decompressed size decides, so that a
  // 3 MB .json.gz of 54 MB of JSON is cached like the JSON would be.
  const uint64_t bytes = loaded.ok() ? std::max(key.size, loaded->info().input_bytes) : 0;
  if (loaded.ok() && bytes >= settings.min_trace_bytes) {
    info->ticket = StoreTicket{true, cache_path, key};
  } else if (info->outcome == CacheOutcome::kMiss) {
    info->outcome = CacheOutcome::kDisabled;
  }
  return loaded;
}

bool Store(const Trace& trace, const StoreTicket& ticket, const CacheSettings& settings, std::string* error) {
  if (!ticket.store) return true;
  std::error_code ec;
  fs::create_directories(settings.dir, ec);
  if (ec) {
    *error = settings.dir + ": " + ec.message();
    return false;
  }
  // Unique per process and thread: two writers of one entry never share a
  // temporary, and the last rename wins with a complete file either way.
  static std::atomic<uint64_t> counter{0};
  const std::string temp = ticket.cache_path.substr(0, ticket.cache_path.size() - kSuffix.size()) +
                           std::string(kTempMarker) + std::to_string(getpid()) + "." +
                           std::to_string(counter.fetch_add(1));
  if (!WriteCacheFile(trace, ticket.key, settings.stepline_version, temp, error)) {
    unlink(temp.c_str());
    return false;
  }
  if (rename(temp.c_str(), ticket.cache_path.c_str()) != 0) {
    *error = ticket.cache_path + ": rename: " + std::strerror(errno);
    unlink(temp.c_str());
    return false;
  }
  Evict(settings);
  return true;
}

uint64_t ClearCache(const CacheSettings& settings) {
  uint64_t freed = 0;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(settings.dir, ec)) {
    if (!IsCacheFile(de.path()) && !IsTempFile(de.path())) continue;
    std::error_code e2;
    const uint64_t bytes = de.file_size(e2);
    if (fs::remove(de.path(), e2) && !e2) freed += bytes;
  }
  return freed;
}

uint64_t CacheBytes(const CacheSettings& settings) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& de : fs::directory_iterator(settings.dir, ec)) {
    std::error_code e2;
    if (IsCacheFile(de.path())) total += de.file_size(e2);
  }
  return total;
}

BackgroundStore::~BackgroundStore() {
  for (auto& t : threads_) t.join();
}

void BackgroundStore::Start(std::shared_ptr<const Trace> trace, StoreTicket ticket, CacheSettings settings) {
  if (!ticket.store) return;
  try {
    threads_.emplace_back([trace = std::move(trace), ticket = std::move(ticket), settings = std::move(settings)] {
      std::string error;
      try {
        Store(*trace, ticket, settings, &error);  // a failed write only costs the next open a parse
      } catch (const std::bad_alloc&) {  // so does one that ran out of memory (off this thread it would abort)
      }
    });
  } catch (...) {
    // No thread to write it (out of memory): the entry is not written.
  }
}

}  // namespace stepline::column_cache
