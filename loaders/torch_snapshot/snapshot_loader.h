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

// How the device trace entries were read, for the tests that hold the
// reader's fast path to the opcode loop's result.
struct SnapshotReadCounts {
  uint64_t fast_entries = 0;  // straight from the bytes (pickle::FlatSink)
  uint64_t loop_entries = 0;  // through the opcode loop (pickle::ItemSink)
};
Result<Trace, LoadError> LoadTorchSnapshotBytesForTest(std::string_view bytes, bool fast_path,
                                                       SnapshotReadCounts* counts);

}  // namespace stepline::loaders
