// rocprofv3 JSON (`rocprofv3 --output-format json`, rocprofiler-sdk-tool)
// becomes a Trace: kernel dispatches on "Queue N" tracks of "GPU N", memory
// copies, HIP/HSA/RCCL API calls on their threads linked to their dispatches
// by correlation id, and roctx markers as host ranges (and a step source).
#pragma once

#include <string>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/load.h"

namespace stepline::loaders {

// The dispatcher's entry point (input.bytes carries simdjson's padding).
Result<Trace, LoadError> LoadRocprofJson(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                         LoadProgress* progress);
// Bytes in, Trace or LoadError out (no decompression, no sniffing).
Result<Trace, LoadError> LoadRocprofJsonBytes(std::string_view bytes, const std::string& name,
                                              const LoadOptions& options = {});

}  // namespace stepline::loaders
