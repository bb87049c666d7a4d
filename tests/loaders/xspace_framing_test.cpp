// The hand-written XSpace framing walker and wire reader: plane spans,
// top-level strings, unknown fields, and clean errors on forged lengths,
// including lengths past 2^31 that libprotobuf could not represent.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <string>
#include <vector>

#include "loaders/proto_wire/wire_reader.h"
#include "loaders/xspace/xspace_framing.h"
#include "loaders/xspace/xspace_loader.h"

namespace stepline::loaders::xspace {
namespace {

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

std::string LenField(uint32_t number, const std::string& payload) {
  return Varint(number << 3 | 2) + Varint(payload.size()) + payload;
}

TEST(XSpaceFraming, FindsPlanesAndTopLevelStrings) {
  const std::string plane0 = LenField(2, "/host:CPU");
  const std::string bytes = LenField(1, plane0) + LenField(3, "dropped 2 events") + Varint(7 << 3 | 0) + Varint(300) +
                            LenField(1, "") + LenField(4, "host-a") + LenField(2, "boom");
  auto framing = WalkXSpace(bytes, "x");
  ASSERT_TRUE(framing.ok()) << framing.error().ToString();
  ASSERT_EQ(framing->planes.size(), 2u);
  EXPECT_EQ(framing->planes[0].offset, 2u);  // tag + 1-byte length
  EXPECT_EQ(framing->planes[0].size, plane0.size());
  EXPECT_EQ(framing->planes[1].size, 0u);
  ASSERT_EQ(framing->warnings.size(), 1u);
  EXPECT_EQ(framing->warnings[0], "dropped 2 events");
  EXPECT_EQ(framing->hostnames, std::vector<std::string_view>{"host-a"});
  EXPECT_EQ(framing->errors, std::vector<std::string_view>{"boom"});
  EXPECT_EQ(framing->unknown_fields, 1u);
}

TEST(XSpaceFraming, ForgedLengthAbove2GiBIsACleanErrorAtTheLengthByte) {
  const uint64_t forged = (uint64_t{1} << 31) + 17;
  const std::string bytes = LenField(1, LenField(2, "/host:CPU")) + Varint(1 << 3 | 2) + Varint(forged) + "tail";
  const uint64_t length_at = LenField(1, LenField(2, "/host:CPU")).size() + 1;
  auto framing = WalkXSpace(bytes, "forged.xplane.pb");
  ASSERT_FALSE(framing.ok());
  EXPECT_EQ(framing.error().code, LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(framing.error().byte_offset, length_at);
  EXPECT_NE(framing.error().message.find("XSpace.planes[1]"), std::string::npos) << framing.error().message;
  EXPECT_NE(framing.error().message.find(std::to_string(forged)), std::string::npos) << framing.error().message;
}

TEST(XSpaceFraming, TruncatedTailIsToleratedOnlyWhenAsked) {
  const std::string whole = LenField(1, LenField(2, "/host:CPU")) + LenField(1, LenField(2, "/device:GPU:0"));
  const std::string cut = whole.substr(0, whole.size() - 3);
  EXPECT_FALSE(WalkXSpace(cut, "x").ok());
  auto framing = WalkXSpace(cut, "x", /*tolerate_truncation=*/true);
  ASSERT_TRUE(framing.ok());
  EXPECT_EQ(framing->planes.size(), 1u);
  EXPECT_EQ(framing->truncated_at, LenField(1, LenField(2, "/host:CPU")).size());
}

TEST(XSpaceFraming, BadTopLevelWireTypeAndOverlongVarint) {
  auto wrong_type = WalkXSpace(Varint(1 << 3 | 0) + Varint(5), "x");  // planes as a varint
  ASSERT_FALSE(wrong_type.ok());
  EXPECT_EQ(wrong_type.error().byte_offset, 0u);
  auto overlong = WalkXSpace(std::string("\x0a") + std::string(11, '\xff') + "\x01", "x");
  ASSERT_FALSE(overlong.ok());
  EXPECT_EQ(overlong.error().code, LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(overlong.error().byte_offset, 1u);
}

TEST(WireReader, SkipsUnknownGroupsAndRejectsStrayEndGroup) {
  // field 9 start-group { field 1 varint } end-group 9, then field 2 varint 5.
  const std::string bytes = Varint(9 << 3 | 3) + Varint(1 << 3 | 0) + Varint(1) + Varint(9 << 3 | 4) +
                            Varint(2 << 3 | 0) + Varint(5);
  WireReader reader(bytes.data(), bytes.data() + bytes.size(), 100);
  WireField f;
  ASSERT_TRUE(reader.Next(&f));
  EXPECT_EQ(f.number, 2u);
  EXPECT_EQ(f.value, 5u);
  EXPECT_TRUE(reader.done());
  const std::string stray = Varint(3 << 3 | 4);
  WireReader bad(stray.data(), stray.data() + stray.size(), 100);
  EXPECT_FALSE(bad.Next(&f));
  EXPECT_EQ(bad.error().offset, 100u);
}

// A real buffer of more than 2 GiB, mapped but never touched past its first
// bytes (MAP_NORESERVE, zero pages), holding one XPlane whose only field is
// an event_metadata entry of INT_MAX + 1 bytes. The framing walker handles the
// 64-bit lengths; the entry, which would go to libprotobuf, is a clean
// kTooLarge before any parse.
// Every varint length decodes the same through the one- and two-byte fast
// paths and the byte loop, whether more bytes follow or the varint ends the
// buffer; an unterminated varint still fails at its first byte.
// Framing tells a cut file (keep what came before) from a malformed byte
// (an error) by WireError::ran_out, not by the wording of the message.
TEST(WireReader, RunningOutOfBytesIsToldApartFromAMalformedByte) {
  WireField f;
  const std::string cut_varint = "\x08\x80";                 // field 1 varint, value cut
  const std::string cut_length = std::string("\x0a\x05") + "ab";  // field 1, 5 bytes announced, 2 there
  const std::string cut_fixed = "\x09\x01\x02";              // field 1 fixed64, 2 of 8 bytes
  for (const std::string& bytes : {cut_varint, cut_length, cut_fixed}) {
    WireReader reader(bytes.data(), bytes.data() + bytes.size(), 0);
    EXPECT_FALSE(reader.Next(&f));
    EXPECT_TRUE(reader.error().ran_out) << reader.error().what;
  }
  const std::string bad_field = std::string("\x00\x01", 2);  // field number 0
  const std::string stray_end = "\x0c";                        // end-group with no start
  for (const std::string& bytes : {bad_field, stray_end}) {
    WireReader reader(bytes.data(), bytes.data() + bytes.size(), 0);
    EXPECT_FALSE(reader.Next(&f));
    EXPECT_FALSE(reader.error().ran_out) << reader.error().what;
  }
}

TEST(WireReader, VarintsOfEveryLengthDecodeOnBothPaths) {
  std::vector<uint64_t> values = {0, 1, 127, 128, 300, UINT64_MAX, uint64_t{1} << 63};
  for (int bits = 7; bits < 64; bits += 7) {
    values.push_back((uint64_t{1} << bits) - 1);
    values.push_back(uint64_t{1} << bits);
    values.push_back(0x0123456789ABCDEFull >> (64 - bits));
  }
  for (const uint64_t value : values) {
    std::string bytes;
    for (uint64_t v = value; ; v >>= 7) {
      bytes.push_back(static_cast<char>((v & 0x7F) | (v >= 0x80 ? 0x80 : 0)));
      if (v < 0x80) break;
    }
    for (const bool padded : {false, true}) {
      const std::string buffer = bytes + (padded ? std::string(9, '\x7F') : std::string());
      WireReader reader(buffer.data(), buffer.data() + buffer.size(), 100);
      uint64_t out = 0;
      ASSERT_TRUE(reader.ReadVarint(&out)) << value;
      EXPECT_EQ(out, value) << "padded " << padded;
      EXPECT_EQ(reader.offset(), 100 + bytes.size()) << value;
    }
  }
  const std::string open(12, '\x80');  // no terminating byte within 10
  WireReader reader(open.data(), open.data() + open.size(), 7);
  uint64_t out = 0;
  EXPECT_FALSE(reader.ReadVarint(&out));
  EXPECT_EQ(reader.error().offset, 7u);
}

TEST(XSpaceFraming, EntryBeyondProtobufLimitIsTooLargeNotACrash) {
  const uint64_t entry_size = kMaxProtobufMessageBytes + 1;
  const std::string entry_header = Varint(4 << 3 | 2) + Varint(entry_size);
  const uint64_t plane_size = entry_header.size() + entry_size;
  const std::string plane_header = Varint(1 << 3 | 2) + Varint(plane_size);
  const size_t total = plane_header.size() + plane_size;
  void* mem = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mem == MAP_FAILED) GTEST_SKIP() << "cannot reserve " << total << " bytes of address space";
  char* p = static_cast<char*>(mem);
  std::copy(plane_header.begin(), plane_header.end(), p);
  std::copy(entry_header.begin(), entry_header.end(), p + plane_header.size());
  const std::string_view bytes(p, total);

  auto framing = WalkXSpace(bytes, "huge");
  ASSERT_TRUE(framing.ok()) << framing.error().ToString();
  ASSERT_EQ(framing->planes.size(), 1u);
  EXPECT_EQ(framing->planes[0].size, plane_size);
  EXPECT_GT(framing->planes[0].size, uint64_t{1} << 31);

  auto result = LoadXSpaceBytes(bytes, "huge.xplane.pb");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, LoadErrorCode::kTooLarge);
  EXPECT_EQ(result.error().byte_offset, plane_header.size() + entry_header.size());
  munmap(mem, total);
}

}  // namespace
}  // namespace stepline::loaders::xspace
