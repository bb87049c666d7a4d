// Chrome Trace Event JSON loader (PyTorch/Kineto, TensorBoard/TF/JAX
// trace-viewer JSON, Catapult/Chrome traces): the entry point load.cpp calls
// after sniffing. Splits the traceEvents array into chunks parsed in parallel
// (json_chunker.h), tokenizes them with simdjson (event_tokenizer.h) and
// imports them in input order through one TraceBuilder (event_importer.h).
#pragma once

#include <cstdint>
#include <string>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "loaders/load_error.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::loaders {

// `input.bytes` is decompressed JSON followed by >= 64 zero bytes of padding.
Result<Trace, LoadError> LoadChromeJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress);

// Knobs for tests and benchmarks; the defaults are what LoadChromeJson uses.
struct ChromeJsonTuning {
  uint64_t chunk_bytes = 0;  // target chunk size; 0 = chosen from the input size and thread count
};
Result<Trace, LoadError> LoadChromeJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                        LoadProgress* progress, const ChromeJsonTuning& tuning);

class DecodeStream;
// The same while `stream` (decode_stream.h) is still decompressing: chunks
// are planned and parsed as their bytes arrive. On success, and whenever the
// whole text was needed, `*finished` holds the stream's result (the decoded
// input with its truncation facts) afterwards; the stream is then used up.
Result<Trace, LoadError> LoadChromeJsonStreamed(DecodeStream* stream, DecodedInput* finished, const std::string& path,
                                                const LoadOptions& options, LoadProgress* progress,
                                                const ChromeJsonTuning& tuning = {});

}  // namespace stepline::loaders
