// Perfetto framing: walks the top-level fields of a `Trace` (each packet is
// field 1, length-delimited) and returns where each TracePacket's bytes are.
// A file cut inside its last packet keeps the packets before the cut.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/load_error.h"
#include "model/result.h"

namespace stepline::loaders::perfetto {

struct PacketSpan {
  std::string_view bytes;  // the TracePacket payload (after tag and length)
  uint64_t offset = 0;     // offset of `bytes` in the walked buffer, plus the buffer's base offset
};

struct PacketFraming {
  std::vector<PacketSpan> packets;     // in file order
  uint64_t other_fields = 0;           // top-level fields other than 1 (skipped)
  uint64_t truncated_at = UINT64_MAX;  // offset of the cut-off field when tolerated, else UINT64_MAX
  uint64_t truncated_declared_end = 0; // where the cut packet said it would end (0: its length was cut too)
};

// Walks `bytes`, whose first byte is at absolute offset `base_offset`. A bad
// tag or a packet with the wrong wire type is a kProtobufInvalid LoadError
// naming the byte, prefixed by `where` ("Trace" or "compressed_packets at
// byte N"). With `tolerate_truncation`, a last field whose tag, length or
// payload runs past the end is dropped and noted in `truncated_at`; without
// it that is an error too. A length above 2 GiB is an error either way.
Result<PacketFraming, LoadError> WalkPackets(std::string_view bytes, uint64_t base_offset, const std::string& path,
                                             std::string_view where, bool tolerate_truncation);

}  // namespace stepline::loaders::perfetto
