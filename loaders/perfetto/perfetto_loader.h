// The Perfetto protobuf (`*.pftrace`, `*.perfetto-trace`) loader: the
// TrackEvent subset of trace-formats.md section 3 into the same model as the
// other formats. How packets become rows: packet_importer.h and
// track_registry.h.
#pragma once

#include <string>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "loaders/load_error.h"
#include "model/result.h"
#include "model/trace.h"

namespace stepline::loaders {

// Never throws, never prints. Malformed bytes are a kProtobufInvalid
// LoadError naming the byte offset and the message being read; a file cut
// inside its last packet keeps the packets before the cut with a kTruncated
// diagnostic.
Result<Trace, LoadError> LoadPerfetto(const DecodedInput& input, const std::string& path, const LoadOptions& options,
                                      LoadProgress* progress);

// The same on plain bytes: tests and tools.
Result<Trace, LoadError> LoadPerfettoBytes(std::string_view bytes, const std::string& path,
                                           const LoadOptions& options = {}, LoadProgress* progress = nullptr);

}  // namespace stepline::loaders
