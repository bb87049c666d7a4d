// The column cache file: a finalized Trace written as its raw columns, which a
// later open maps read-only and uses in place (Column<T>::Borrow), so a cached
// open costs a map, a checksum pass and no parse or copy of the big columns.
//
// Layout (little-endian, this machine's own types; a cache is never shared
// between machines):
//   header   FileHeader, 256 bytes: magic, format version, Stepline version,
//            the trace's key, the entry count, the header checksum
//   index    kMaxEntries IndexEntry slots: name, element size, offset,
//            bytes and checksum of each column; entry 0 is the "meta" blob
//            (every scalar and string of the model, in visit order)
//   data     each entry's bytes at a 64-byte aligned offset
// The header checksum covers the header and the index; each entry has its
// own checksum, and every one is verified before the trace is handed out.
#pragma once

#include <cstdint>
#include <string>

#include "model/result.h"
#include "model/trace.h"

namespace stepline::column_cache {

// Bump when the layout, a table's VisitStorage order, a column's type or a value a
// column may hold changes (2: ArgType::kDecimalString; 3: args.value
// holds 32 bits, wider values go to args.wide; 4: the key holds the trace
// file's inode and status-change time; 5: TraceInfo's event_cap and
// recorded_until_ns; 6: a diagnostic code more, memory_snapshot_apart).
inline constexpr uint32_t kFormatVersion = 6;

// What a cache file must match to stand for a trace file.
struct TraceKey {
  uint64_t size = 0;       // bytes on disk
  int64_t mtime_ns = 0;    // modification time, ns since the epoch
  uint64_t edge_hash = 0;  // hash of the first and last MiB
  uint64_t path_hash = 0;  // hash of the absolute path
  // Any write to the file sets its status-change time to the clock, and no
  // call sets it back (utimensat restores mtime, not ctime): so a trace
  // rewritten at the same size and mtime with other bytes in the middle,
  // where the edge hash does not look, still changes the key. A new file
  // renamed over the old one has another inode.
  int64_t ctime_ns = 0;
  uint64_t inode = 0;
  bool operator==(const TraceKey&) const = default;
};

// Fast 64-bit hash of bytes (four independent multiply-fold lanes, so one
// core hashes at memory speed); used for keys and checksums.
uint64_t HashBytes(const void* data, size_t bytes, uint64_t seed = 0);

// Writes `trace` to `path` (overwriting). The caller renames it into place.
// Returns false with `error` set on an I/O failure.
bool WriteCacheFile(const Trace& trace, const TraceKey& key, std::string_view stepline_version,
                    const std::string& path, std::string* error);

// Maps `path` and returns the trace it holds, its columns viewing the mapping
// (which the trace keeps alive). Fails, with a reason, on anything that does
// not match: magic, versions, key, sizes, offsets, names, checksums.
Result<Trace, std::string> ReadCacheFile(const std::string& path, const TraceKey& key,
                                         std::string_view stepline_version);

}  // namespace stepline::column_cache
