// WireReader: a bounds-checked cursor over protobuf wire data (varints, tags,
// length-delimited payloads) that remembers absolute file offsets, so a
// malformed byte is reported where it is. Shared by the XSpace and Perfetto
// loaders. Header-only; it never reads past `end` and never allocates.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace stepline::loaders {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLen = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

// What went wrong, and where (absolute offset in the decompressed input).
struct WireError {
  uint64_t offset = 0;
  const char* what = nullptr;  // static text: "varint runs past the end", ...
  bool ran_out = false;        // the bytes ended mid-field (truncation), not a malformed byte
};

// One field as read: number, wire type, and its value (varint / fixed bits)
// or payload (length-delimited).
struct WireField {
  uint32_t number = 0;
  WireType type = WireType::kVarint;
  uint64_t value = 0;          // varint, or fixed32/fixed64 bits
  const char* payload = nullptr;
  uint64_t payload_size = 0;   // kLen only
  uint64_t tag_offset = 0;     // absolute offset of the tag
};

class WireReader {
 public:
  // `base_offset` is the absolute offset of `begin` in the input.
  WireReader(const char* begin, const char* end, uint64_t base_offset)
      : begin_(begin), pos_(begin), end_(end), base_offset_(base_offset) {}

  bool done() const { return pos_ >= end_; }
  uint64_t offset() const { return base_offset_ + static_cast<uint64_t>(pos_ - begin_); }
  uint64_t OffsetOf(const char* p) const { return base_offset_ + static_cast<uint64_t>(p - begin_); }
  const WireError& error() const { return error_; }

  // Reads the next field. Groups (wire types 3/4, absent from proto3 but
  // legal on the wire) are skipped whole as unknown fields. Returns false at
  // a malformed byte, with error() set.
  bool Next(WireField* f) {
    for (;;) {
      f->tag_offset = offset();
      uint64_t tag;
      if (!ReadVarint(&tag)) return false;
      f->number = static_cast<uint32_t>(tag >> 3);
      if ((tag >> 3) == 0 || (tag >> 3) > kMaxFieldNumber) return Fail(f->tag_offset, "invalid field number in tag");
      const uint32_t type = static_cast<uint32_t>(tag & 7);
      switch (type) {
        case 0:
          f->type = WireType::kVarint;
          return ReadVarint(&f->value);
        case 1:
          f->type = WireType::kFixed64;
          return ReadFixed(8, &f->value);
        case 2: {
          f->type = WireType::kLen;
          const uint64_t len_offset = offset();
          uint64_t len;
          if (!ReadVarint(&len)) return false;
          if (len > static_cast<uint64_t>(end_ - pos_))
            return Fail(len_offset, "length runs past the end of its message", /*ran_out=*/true);
          f->payload = pos_;
          f->payload_size = len;
          pos_ += len;
          return true;
        }
        case 3:
          if (!SkipGroup(f->number)) return false;
          continue;  // an unknown group: read the field after it
        case 5:
          f->type = WireType::kFixed32;
          return ReadFixed(4, &f->value);
        default:
          return Fail(f->tag_offset, type == 4 ? "end-group tag without a start-group" : "invalid wire type");
      }
    }
  }

  bool ReadVarint(uint64_t* out) {
    if (pos_ < end_ && static_cast<uint8_t>(*pos_) < 0x80) {  // one byte: most tags, ids and lengths
      *out = static_cast<uint8_t>(*pos_++);
      return true;
    }
    if (end_ - pos_ >= 2 && static_cast<uint8_t>(pos_[1]) < 0x80) {  // two bytes: lengths, small values
      *out = (static_cast<uint8_t>(pos_[0]) & 0x7Fu) | (uint64_t{static_cast<uint8_t>(pos_[1])} << 7);
      pos_ += 2;
      return true;
    }
    uint64_t result = 0;
    const char* start = pos_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= end_) return Fail(OffsetOf(start), "varint runs past the end of its message", /*ran_out=*/true);
      const uint8_t byte = static_cast<uint8_t>(*pos_++);
      result |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (byte < 0x80) {
        *out = result;
        return true;
      }
    }
    return Fail(OffsetOf(start), "varint longer than 10 bytes");
  }

  static constexpr uint32_t kMaxFieldNumber = (1u << 29) - 1;

 private:
  bool ReadFixed(int n, uint64_t* out) {
    if (end_ - pos_ < n) return Fail(offset(), "fixed-width value runs past the end of its message", /*ran_out=*/true);
    uint64_t v = 0;
    std::memcpy(&v, pos_, static_cast<size_t>(n));  // little-endian hosts only (x86-64, arm64)
    pos_ += n;
    *out = v;
    return true;
  }

  // Skips to the end-group tag matching `number`, nested groups included.
  bool SkipGroup(uint32_t number) {
    constexpr int kMaxGroupDepth = 64;
    uint32_t stack[kMaxGroupDepth];
    int depth = 0;
    stack[depth++] = number;
    while (depth > 0) {
      const uint64_t tag_offset = offset();
      uint64_t tag, ignored;
      if (!ReadVarint(&tag)) return false;
      const uint32_t field = static_cast<uint32_t>(tag >> 3);
      switch (tag & 7) {
        case 0: if (!ReadVarint(&ignored)) return false; break;
        case 1: if (!ReadFixed(8, &ignored)) return false; break;
        case 5: if (!ReadFixed(4, &ignored)) return false; break;
        case 2: {
          const uint64_t len_offset = offset();
          uint64_t len;
          if (!ReadVarint(&len)) return false;
          if (len > static_cast<uint64_t>(end_ - pos_))
            return Fail(len_offset, "length runs past the end of its group", /*ran_out=*/true);
          pos_ += len;
          break;
        }
        case 3:
          if (depth == kMaxGroupDepth) return Fail(tag_offset, "groups nested too deeply");
          stack[depth++] = field;
          break;
        case 4:
          if (stack[depth - 1] != field) return Fail(tag_offset, "end-group tag does not match its start");
          --depth;
          break;
        default: return Fail(tag_offset, "invalid wire type");
      }
    }
    return true;
  }

  bool Fail(uint64_t at, const char* what, bool ran_out = false) {
    error_ = WireError{at, what, ran_out};
    pos_ = end_;
    return false;
  }

  const char* begin_;
  const char* pos_;
  const char* end_;
  uint64_t base_offset_;
  WireError error_;
};

inline std::string_view PayloadView(const WireField& f) {
  return std::string_view(f.payload, static_cast<size_t>(f.payload_size));
}

}  // namespace stepline::loaders
