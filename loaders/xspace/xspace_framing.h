// XSpace framing: walks the top-level fields of an XSpace message by hand and
// returns where each XPlane's bytes are, plus the space's error, warning and
// host-name strings. Nothing here allocates per event.
//
// Why by hand: libprotobuf 3.21 cannot parse a message of 2 GiB or more.
// MessageLite::ParseFromArray takes the size as `int` (at most INT_MAX =
// 2147483647 bytes), CodedInputStream's total_bytes_limit defaults to INT_MAX,
// and a nested length prefix is rejected above INT_MAX - 16 (ParseContext's
// kSlopBytes). A whole profile may be larger than that, so the loader never
// hands the XSpace (or an XPlane) to libprotobuf: planes, lines and events are
// decoded by our WireReader, which has no size limit below 2^64, and so are
// the per-id metadata entries (xplane_metadata.h); those are still checked
// against kMaxProtobufMessageBytes, so an entry no other XSpace reader could
// parse is a clean kTooLarge. libprotobuf only encodes test inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loaders/load_error.h"
#include "model/result.h"

namespace stepline::loaders::xspace {

// Largest message ParseFromArray accepts: its size parameter is an int.
inline constexpr uint64_t kMaxProtobufMessageBytes = 2147483647;  // INT_MAX

struct PlaneSpan {
  uint64_t offset = 0;  // absolute offset of the XPlane payload (after tag and length)
  uint64_t size = 0;    // payload bytes
};

struct XSpaceFraming {
  std::vector<PlaneSpan> planes;          // XSpace.planes (field 1), in file order
  std::vector<std::string_view> errors;   // XSpace.errors (2), views into the input
  std::vector<std::string_view> warnings; // XSpace.warnings (3)
  std::vector<std::string_view> hostnames;// XSpace.hostnames (4)
  uint64_t unknown_fields = 0;            // skipped top-level fields of other numbers
  uint64_t truncated_at = UINT64_MAX;     // tolerate_truncation: offset of the cut-off field, else UINT64_MAX
};

// Walks `bytes` (a whole XSpace). A malformed tag, varint or length prefix is
// a kProtobufInvalid LoadError whose offset is that byte and whose message
// names the field, e.g. "XSpace.planes[0] (field 1, tag at byte 0): length
// 28501368332271 runs past the end of the input (1365940 bytes)".
// With `tolerate_truncation` (the loader always asks: a cut file keeps its
// prefix, xspace_cut_repair.h), a last field running past the end is dropped
// and noted in `truncated_at`, unless its length exceeds
// kMaxProtobufMessageBytes: no writer makes such a field, so that is damage.
Result<XSpaceFraming, LoadError> WalkXSpace(std::string_view bytes, const std::string& path,
                                            bool tolerate_truncation = false);

}  // namespace stepline::loaders::xspace
