// Perfetto framing: the walk over Trace.packet (see packet_framing.h).
#include "loaders/perfetto/packet_framing.h"

#include "loaders/perfetto/perfetto_fields.h"
#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::perfetto {
namespace {
constexpr uint64_t kMaxMessageBytes = 2147483647;  // INT_MAX: libprotobuf's limit for any message
}  // namespace

Result<PacketFraming, LoadError> WalkPackets(std::string_view bytes, uint64_t base_offset, const std::string& path,
                                             std::string_view where, bool tolerate_truncation) {
  PacketFraming out;
  out.packets.reserve(bytes.size() / 64);
  const char* begin = bytes.data();
  const char* end = begin + bytes.size();
  WireReader reader(begin, end, base_offset);
  const auto fail = [&](uint64_t offset, const std::string& what) {
    return MakeUnexpected(LoadError{LoadErrorCode::kProtobufInvalid, path, offset, LoadError::kNoOffset,
                                    std::string(where) + ": " + what});
  };
  while (!reader.done()) {
    const uint64_t tag_offset = reader.offset();
    uint64_t tag;
    if (!reader.ReadVarint(&tag)) {
      if (tolerate_truncation) {
        out.truncated_at = tag_offset;
        return out;
      }
      return fail(reader.error().offset, std::string("packet tag: ") + reader.error().what);
    }
    const uint64_t number = tag >> 3;
    const uint32_t type = static_cast<uint32_t>(tag & 7);
    if (number == trace_field::kPacket && type != 2) {
      return fail(tag_offset, "Trace.packet (field 1) has wire type " + std::to_string(type) +
                                  ", expected 2 (length-delimited); not a Perfetto trace or corrupt");
    }
    if (type != 2) {
      // Not a packet: let the generic reader skip (or reject) it from its tag.
      const size_t local = static_cast<size_t>(tag_offset - base_offset);
      WireReader skipper(begin + local, end, tag_offset);
      WireField f;
      if (!skipper.Next(&f)) {
        if (tolerate_truncation && skipper.error().ran_out) {
          out.truncated_at = tag_offset;
          return out;
        }
        return fail(skipper.error().offset, "top-level field " + std::to_string(number) + ": " + skipper.error().what +
                                                 "; expected a packet (tag 0A)");
      }
      reader = WireReader(begin + (skipper.offset() - base_offset), end, skipper.offset());
      ++out.other_fields;
      continue;
    }
    uint64_t len;
    const uint64_t len_offset = reader.offset();
    if (!reader.ReadVarint(&len)) {
      if (tolerate_truncation) {
        out.truncated_at = tag_offset;
        return out;
      }
      return fail(reader.error().offset, std::string("packet length: ") + reader.error().what);
    }
    const uint64_t payload = reader.offset();
    const uint64_t remaining = base_offset + bytes.size() - payload;
    if (len > remaining) {
      // A cut file ends inside its last packet; a length beyond what any
      // protobuf message can hold (2 GiB) is damage, not a cut.
      if (tolerate_truncation && len <= kMaxMessageBytes) {
        out.truncated_at = tag_offset;
        out.truncated_declared_end = payload + len;
        return out;
      }
      return fail(len_offset, "packet " + std::to_string(out.packets.size()) + " (tag at byte " +
                                  std::to_string(tag_offset) + "): length " + std::to_string(len) +
                                  " runs past the end (" + std::to_string(remaining) + " bytes left)");
    }
    const size_t local = static_cast<size_t>(payload - base_offset);
    if (number == trace_field::kPacket) {
      out.packets.push_back(PacketSpan{bytes.substr(local, static_cast<size_t>(len)), payload});
    } else {
      ++out.other_fields;
    }
    reader = WireReader(begin + local + len, end, payload + len);
  }
  return out;
}

}  // namespace stepline::loaders::perfetto
