// XSpace framing: the hand-written walk over the top-level XSpace fields.
#include "loaders/xspace/xspace_framing.h"

#include "loaders/proto_wire/wire_reader.h"

namespace stepline::loaders::xspace {
namespace {

const char* TopFieldName(uint32_t number) {
  switch (number) {
    case 1: return "XSpace.planes";
    case 2: return "XSpace.errors";
    case 3: return "XSpace.warnings";
    case 4: return "XSpace.hostnames";
    default: return "XSpace unknown field";
  }
}

LoadError Invalid(const std::string& path, uint64_t offset, std::string message) {
  return LoadError{LoadErrorCode::kProtobufInvalid, path, offset, LoadError::kNoOffset, std::move(message)};
}

}  // namespace

Result<XSpaceFraming, LoadError> WalkXSpace(std::string_view bytes, const std::string& path,
                                            bool tolerate_truncation) {
  XSpaceFraming out;
  const char* begin = bytes.data();
  const char* end = begin + bytes.size();
  WireReader reader(begin, end, 0);
  size_t index_by_field[5] = {0, 0, 0, 0, 0};
  while (!reader.done()) {
    const uint64_t tag_offset = reader.offset();
    uint64_t tag;
    if (!reader.ReadVarint(&tag)) {
      if (tolerate_truncation) {
        out.truncated_at = tag_offset;
        return out;
      }
      return MakeUnexpected(Invalid(path, reader.error().offset, std::string("XSpace: tag ") + reader.error().what));
    }
    const uint64_t number = tag >> 3;
    const uint32_t type = static_cast<uint32_t>(tag & 7);
    if (number >= 1 && number <= 4 && type != 2) {
      return MakeUnexpected(Invalid(path, tag_offset,
                                    std::string(TopFieldName(static_cast<uint32_t>(number))) + " (field " +
                                        std::to_string(number) + ") has wire type " + std::to_string(type) +
                                        ", expected 2 (length-delimited); not an XSpace or corrupt"));
    }
    if (type != 2) {
      // An unknown field: let the generic reader skip it from its tag.
      WireReader skipper(begin + tag_offset, end, tag_offset);
      WireField f;
      if (!skipper.Next(&f)) {
        return MakeUnexpected(Invalid(path, skipper.error().offset,
                                      "XSpace unknown field " + std::to_string(number) + ": " + skipper.error().what));
      }
      reader = WireReader(begin + skipper.offset(), end, skipper.offset());
      ++out.unknown_fields;
      continue;
    }
    const uint64_t len_offset = reader.offset();
    uint64_t len;
    if (!reader.ReadVarint(&len)) {
      if (tolerate_truncation) {
        out.truncated_at = tag_offset;
        return out;
      }
      return MakeUnexpected(Invalid(path, reader.error().offset, std::string("XSpace field length: ") + reader.error().what));
    }
    const uint64_t payload = reader.offset();
    const uint64_t remaining = bytes.size() - payload;
    const uint32_t field = number <= 4 ? static_cast<uint32_t>(number) : 0;
    if (len > remaining) {
      // A cut file ends inside its last field; a length beyond what any
      // protobuf message can hold is damage, not a cut.
      if (tolerate_truncation && len <= kMaxProtobufMessageBytes) {
        out.truncated_at = tag_offset;
        return out;
      }
      std::string where = field ? std::string(TopFieldName(field)) + "[" + std::to_string(index_by_field[field]) + "]"
                                : "XSpace unknown field";
      return MakeUnexpected(Invalid(path, len_offset,
                                    where + " (field " + std::to_string(number) + ", tag at byte " +
                                        std::to_string(tag_offset) + "): length " + std::to_string(len) +
                                        " runs past the end of the input (" + std::to_string(bytes.size()) +
                                        " bytes)"));
    }
    const std::string_view value(begin + payload, static_cast<size_t>(len));
    switch (field) {
      case 1: out.planes.push_back(PlaneSpan{payload, len}); break;
      case 2: out.errors.push_back(value); break;
      case 3: out.warnings.push_back(value); break;
      case 4: out.hostnames.push_back(value); break;
      default: ++out.unknown_fields; break;
    }
    ++index_by_field[field];
    reader = WireReader(begin + payload + len, end, payload + len);
  }
  return out;
}

}  // namespace stepline::loaders::xspace
