// Nsight Systems SQLite exports (`nsys export --type sqlite`) become a Trace.
// Three entry points, all read-only: content already decoded by the load
// dispatcher (a plain file is memory-mapped, a gzip/zstd one inflated), bytes
// in memory (fuzzing, tests), and a file SQLite opens itself.
#pragma once

#include <string>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/load.h"

namespace stepline::loaders {

// The dispatcher's entry point: SQLite reads input.bytes in place.
Result<Trace, LoadError> LoadNsysSqlite(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress);
// Bytes in, Trace or LoadError out (no decompression, no sniffing). The
// runtime table is read on a worker thread over a second connection unless
// options.threads == 1 (fuzz targets may want that, for determinism).
Result<Trace, LoadError> LoadNsysSqliteBytes(std::string_view bytes, const std::string& name,
                                             const LoadOptions& options = {});
// Opens `path` with SQLite itself (URI mode=ro&immutable=1).
Result<Trace, LoadError> LoadNsysSqliteFile(const std::string& path, const LoadOptions& options = {},
                                            LoadProgress* progress = nullptr);

}  // namespace stepline::loaders
