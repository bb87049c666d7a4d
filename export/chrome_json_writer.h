// Writes any finalized Trace as Chrome Trace Event JSON that our JSON loader
// reads back into the same model (same slices, track kinds, GPU kinds, flows).
// Never throws, never prints; errors are values.
//
// What it writes (object form, one event per line):
//   {"traceEvents":[
//     M  process_name / process_sort_index per process, thread_name /
//        thread_sort_index per thread-like track (host thread, GPU stream, GPU
//        derived row), each only when set;
//     per track, in track order:
//       host thread / GPU stream / GPU derived row: X for each slice (name,
//         cat when set, args when set), i with "s":"t" for each instant;
//       async: b/e pairs (cat = track category, id = track tid), n for instants;
//       counter: C per sample, name = track name, args {"value": v};
//       markers: i with "s":"p", or "s":"g" on the global markers track;
//     flows: for each row an s/f pair with "bp":"e"; launch flows get
//       cat = name = "ac2g" and id = the correlation id (Kineto), other flows
//       keep their cat/name ("flow" when empty) and get a fresh id;
//   ], "displayTimeUnit":"ns", <trace metadata args as top-level keys>}
// pid/tid are the model's (so GPU rows keep Kineto's pid = device, tid =
// stream, and TensorBoard's "/device:GPU:0" + "Stream #N(...)" names), ts/dur
// are exact microseconds with three decimals, arg values keep their JSON type
// (kJson args are written as the JSON text they hold).
//
// The loader recognises GPU rows by Kineto categories (kernel, gpu_memcpy, ...)
// or TensorBoard names ("/device:GPU:0", "Stream #N(...)"); every loader and
// the demo produce one of the two, but a hand-built trace with neither reloads
// its GPU rows as host threads. An unnamed thread with no events is not
// written at all.
//
// Flow ends bind to "the deepest slice enclosing ts", so each end is written
// at the first instant of its slice not covered by a child; a slice entirely
// covered by children cannot be told apart in Chrome JSON and binds deeper.
#pragma once

#include <cstdint>
#include <string>

#include "model/result.h"
#include "model/trace.h"

namespace stepline::exports {

struct ChromeJsonWriteOptions {
  bool overwrite = false;     // replace an existing file (otherwise an error)
  int compression_level = 0;  // 0 = our default: gzip 1 (fast), zstd 3
};

struct ChromeJsonWriteStats {
  uint64_t events = 0;      // JSON event objects written
  uint64_t json_bytes = 0;  // uncompressed JSON text
  uint64_t file_bytes = 0;  // bytes on disk
  std::string compression;  // "", "gzip", "zstd"
};

// The compression a path's extension asks for: ".gz" gzip, ".zst"/".zstd"
// zstd, anything else "" (plain JSON).
std::string CompressionForPath(const std::string& path);

// Writes `trace` to `path` through a temporary file in the same directory,
// renamed into place only once complete, so a failed write leaves no partial
// file. Fails if `path` exists unless options.overwrite.
Result<ChromeJsonWriteStats, std::string> WriteChromeJsonFile(const Trace& trace, const std::string& path,
                                                              const ChromeJsonWriteOptions& options = {});

// The same JSON text in memory (tests, small traces).
std::string ChromeJsonText(const Trace& trace);

}  // namespace stepline::exports
