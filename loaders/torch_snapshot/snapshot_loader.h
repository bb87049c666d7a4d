// PyTorch CUDA memory snapshots (torch.cuda.memory._dump_snapshot(): a
// pickled dict with `segments` and `device_traces`) become a Trace whose
// memory instants BuildMemoryTable reads like Kineto's: one "GPU N memory"
// track per device carrying `[memory]` and `[OutOfMemory]` instants. See
// docs/memory-snapshots.md for the mapping.
#pragma once

#include <string>
#include <string_view>

#include "loaders/byte_source.h"
#include "loaders/load.h"

namespace stepline::loaders {

// True for "\x80" followed by a protocol byte 2..5: how every pickle of
// protocol 2 or later begins.
bool IsPickleHead(std::string_view head);

// The dispatcher's entry point.
Result<Trace, LoadError> LoadTorchSnapshot(const DecodedInput& input, const std::string& path,
                                           const LoadOptions& options, LoadProgress* progress);
// Bytes in, Trace or LoadError out (no decompression, no sniffing).
Result<Trace, LoadError> LoadTorchSnapshotBytes(std::string_view bytes, const std::string& name,
                                                const LoadOptions& options = {});

}  // namespace stepline::loaders
