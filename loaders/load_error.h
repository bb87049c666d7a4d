// LoadError: why a file could not be loaded at all. Recoverable problems are
// Diagnostics on the Trace instead; a LoadError means there is no trace.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace stepline::loaders {

enum class LoadErrorCode : uint8_t {
  kIoError = 0,        // open/stat/read/mmap failed (message carries strerror)
  kEmpty,              // the file (or its decompressed content) has no bytes
  kUnknownFormat,      // the first bytes match no format we read
  kUnsupportedFormat,  // recognised (Riegeli) but not loaded
  kDecompressFailed,   // gzip/zstd stream corrupt before any usable byte
  kJsonSyntax,         // malformed JSON that is not just a truncated tail
  kJsonSchema,         // valid JSON of the wrong shape (no traceEvents array, ...)
  kProtobufInvalid,    // malformed protobuf wire data
  kTooLarge,           // beyond a hard limit (message says which)
  kSqliteInvalid,      // an SQLite file SQLite cannot read (corrupt, truncated before its schema)
  kPickleInvalid,      // a memory snapshot pickle that is damaged or uses opcodes we refuse to run
  kCancelled,          // LoadProgress::cancel was set
  kOutOfMemory,        // an allocation failed (std::bad_alloc): the message says what ran out and what to try
};
std::string_view LoadErrorCodeName(LoadErrorCode code);  // "json_syntax", ...

struct LoadError {
  static constexpr uint64_t kNoOffset = UINT64_MAX;

  LoadErrorCode code = LoadErrorCode::kIoError;
  std::string path;                             // the file, when loading from one
  uint64_t byte_offset = kNoOffset;             // in the decompressed stream
  uint64_t compressed_offset = kNoOffset;       // in the file, when compressed and known
  std::string message;                          // names what was expected, e.g. "\"ts\" is not a number"

  // "PATH: byte 1204332: \"ts\" is not a number" (parts omitted when unknown).
  std::string ToString() const;
};

// The error of a loader that knows the file, the byte and what it expected.
LoadError MakeLoadError(LoadErrorCode code, const std::string& path, uint64_t byte_offset, std::string message);

}  // namespace stepline::loaders
