// The XSpace (`*.xplane.pb`) loader: TensorFlow / JAX / XLA profiles into the
// same model as Chrome JSON. Conventions (planes, lines, stats, steps, time)
// are documented in xspace_loader.cpp; format facts in
// shared/docs/trace-formats.md section 1.
#pragma once

#include <string>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "loaders/load_error.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::loaders {

// `input.bytes` is the decompressed XSpace protobuf followed by >= 64 zero
// bytes of padding. Never throws, never prints; a malformed file is a
// kProtobufInvalid LoadError naming the field and its byte offset. A file
// cut anywhere loads every complete event before the cut, with a kTruncated
// diagnostic saying where it was cut and how much was dropped.
Result<Trace, LoadError> LoadXSpace(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                    LoadProgress* progress);

// The same on plain bytes (no padding needed): tests and tools.
Result<Trace, LoadError> LoadXSpaceBytes(std::string_view bytes, const std::string& path,
                                         const LoadOptions& options = {}, LoadProgress* progress = nullptr);

}  // namespace stepline::loaders
