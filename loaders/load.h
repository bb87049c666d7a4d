// The loaders' entry point: sniff the format from the first bytes (never the
// extension), strip gzip/zstd wrappers, dispatch to the format's loader, and
// return a finalized Trace or a LoadError.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "loaders/load_error.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::loaders {

enum class Format : uint8_t {
  kUnknown, kChromeJson, kXSpace, kPerfetto, kNsysSqlite, kRocprofJson,
  kTorchMemorySnapshot,  // torch.cuda.memory._dump_snapshot() pickle
};
// "chrome-json", "xplane", "perfetto", "nsys-sqlite", "rocprof-json",
// "torch-memory-snapshot", "unknown"
std::string_view FormatName(Format f);

struct LoadOptions {
  int threads = 0;         // parser threads; 0 = hardware concurrency
  bool keep_args = true;   // false: skip args (smaller model, faster load)
};

// Polled by the UI from another thread while a load runs.
struct LoadProgress {
  std::atomic<uint64_t> bytes_done{0};   // input bytes consumed so far (decompressed)
  std::atomic<uint64_t> bytes_total{0};  // 0 until known
  std::atomic<bool> cancel{false};       // set by the UI; the loader returns kCancelled soon after
};

// Loads a file from disk. `progress` may be null.
Result<Trace, LoadError> LoadFile(const std::string& path, const LoadOptions& options = {},
                                  LoadProgress* progress = nullptr);

// Loads bytes already in memory (tests, demo traces). `name` is used in errors.
Result<Trace, LoadError> LoadBytes(std::string_view bytes, const std::string& name,
                                   const LoadOptions& options = {}, LoadProgress* progress = nullptr);

// Loads content already decoded by OpenInput()/DecodeBytes() (benchmarks
// time this: parse + build + finalize, without decompression).
struct DecodedInput;
Result<Trace, LoadError> LoadDecodedInput(const DecodedInput& input, const std::string& name,
                                          const LoadOptions& options = {}, LoadProgress* progress = nullptr);

// Hands memory the loader freed (parse buffers, per-thread arenas) back to
// the system. Every Load* entry point calls it before returning, so what stays
// resident after a load is the model.
void ReleaseFreedMemory();

// Looks at up to the first 128 bytes of *decompressed* content.
Format SniffFormat(std::string_view head);

}  // namespace stepline::loaders
