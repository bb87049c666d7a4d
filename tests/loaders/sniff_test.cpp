// Tests for SniffFormat (load.h): JSON openers, BOM and whitespace, and the
// XSpace-vs-Perfetto probe of trace-formats.md 4.3, on hand-made heads and on
// every shared real trace listed in MANIFEST.tsv.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

// A top-level field-1 message (XPlane or TracePacket) wrapping `body`.
std::string Field1(const std::string& body) {
  EXPECT_LT(body.size(), 128u);
  return Bytes({0x0A, static_cast<int>(body.size())}) + body;
}

TEST(SniffTest, JsonOpeners) {
  EXPECT_EQ(SniffFormat("{\"traceEvents\":[]}"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat("[{\"ph\":\"X\"}]"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat("[\n"), Format::kChromeJson);  // truncated TF1 timeline
  EXPECT_EQ(SniffFormat("{"), Format::kChromeJson);
}

TEST(SniffTest, BomAndWhitespaceAreSkipped) {
  EXPECT_EQ(SniffFormat("\xEF\xBB\xBF{}"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat(" \t\r\n{}"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat("\xEF\xBB\xBF \n\n  [ ]"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat("\n{\n  \"schemaVersion\": 1,\n  \"traceEvents\": []}"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat("\n\n[\n"), Format::kChromeJson);
}

TEST(SniffTest, NonTracesAreUnknown) {
  EXPECT_EQ(SniffFormat(""), Format::kUnknown);
  EXPECT_EQ(SniffFormat("   \n\t"), Format::kUnknown);
  EXPECT_EQ(SniffFormat("\xEF\xBB\xBF"), Format::kUnknown);
  EXPECT_EQ(SniffFormat("hello"), Format::kUnknown);
  EXPECT_EQ(SniffFormat("<!DOCTYPE html>"), Format::kUnknown);
  EXPECT_EQ(SniffFormat("\nplain text after a newline"), Format::kUnknown);
  EXPECT_EQ(SniffFormat("\xEF\xBB\xBF\x0A\x05\x08\x01"), Format::kUnknown);  // a BOM never precedes protobuf
  // Compression magic is handled before sniffing; on its own it is no format.
  EXPECT_EQ(SniffFormat(Bytes({0x1F, 0x8B, 0x08, 0x00})), Format::kUnknown);
  EXPECT_EQ(SniffFormat(Bytes({0x28, 0xB5, 0x2F, 0xFD})), Format::kUnknown);
}

TEST(SniffTest, OnlyTheFirst128BytesAreLookedAt) {
  EXPECT_EQ(SniffFormat(std::string(127, ' ') + "{"), Format::kChromeJson);
  EXPECT_EQ(SniffFormat(std::string(128, ' ') + "{"), Format::kUnknown);
}

TEST(SniffTest, XSpaceHeads) {
  // XPlane.id (08).
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x08, 0x01, 0x12, 0x03}) + "/gp")), Format::kXSpace);
  // XPlane.name (12) with text: the real heads of TF/JAX files.
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x12, 0x09}) + "/host:CPU")), Format::kXSpace);
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x12, 0x0A}) + "Task Env 0")), Format::kXSpace);
  // XPlane.lines (1A): TracePacket field 3 is a varint, so this is XPlane only.
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x1A, 0x02, 0x08, 0x01}))), Format::kXSpace);
  // Real head of xprof's demo file: 0A, 3-byte length, 12 "/host:CPU".
  EXPECT_EQ(SniffFormat(Bytes({0x0A, 0xA6, 0xA1, 0x87, 0x01, 0x12, 0x09}) + "/host:CPU" + Bytes({0x1A, 0x57, 0x08})),
            Format::kXSpace);
}

TEST(SniffTest, XSpaceWhoseFirstLengthLooksLikeABrace) {
  // A first plane of 123 bytes starts 0A 7B ("\n{"): still protobuf.
  std::string plane = Bytes({0x08, 0x02, 0x12, 0x04}) + "/gpu" + std::string(115, 'x');
  ASSERT_EQ(plane.size(), 123u);
  EXPECT_EQ(SniffFormat(Bytes({0x0A, 0x7B}) + plane), Format::kXSpace);
  plane[0] = 0x22;  // event_metadata first (ambiguous), then bytes of text
  EXPECT_NE(SniffFormat(Bytes({0x0A, 0x7B}) + plane), Format::kChromeJson);
}

TEST(SniffTest, PerfettoHeads) {
  // Each TracePacket field the doc lists as Perfetto-only, as the first field.
  const std::vector<std::string> first_fields = {
      Bytes({0x18, 0x01}),                    // trusted_uid
      Bytes({0x40, 0x96, 0x01}),              // timestamp
      Bytes({0x50, 0x01}),                    // trusted_packet_sequence_id
      Bytes({0x5A, 0x02, 0x08, 0x01}),        // track_event
      Bytes({0x62, 0x02, 0x0A, 0x00}),        // interned_data
      Bytes({0x68, 0x01}),                    // sequence_flags
      Bytes({0xE2, 0x03, 0x02, 0x08, 0x01}),  // track_descriptor (field 60)
      Bytes({0x12, 0x02, 0x0A, 0x00}),        // process_tree: payload starts with a tag, not text
  };
  for (const std::string& f : first_fields) {
    EXPECT_EQ(SniffFormat(Field1(f)), Format::kPerfetto) << "first byte " << static_cast<int>(f[0] & 0xFF);
  }
  // clock_snapshot (32) is ambiguous; the next field (trusted_uid, 18) decides.
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x32, 0x02, 0x0A, 0x00, 0x18, 0x01}))), Format::kPerfetto);
  // protozero's padded 4-byte length varints never come from libprotobuf.
  EXPECT_EQ(SniffFormat(Field1(Bytes({0x32, 0x82, 0x80, 0x80, 0x00, 0x0A, 0x00}))), Format::kPerfetto);
}

TEST(SniffTest, AmbiguousFirstMessageIsDecidedByTheNextTopLevelField) {
  const std::string metadata_only_plane = Field1(Bytes({0x22, 0x02, 0x08, 0x01}));
  // XSpace.errors (12) after the plane: a Perfetto Trace has only field 1.
  EXPECT_EQ(SniffFormat(metadata_only_plane + Bytes({0x12, 0x01}) + "e"), Format::kXSpace);
  // A second packet that is clearly a TracePacket.
  EXPECT_EQ(SniffFormat(metadata_only_plane + Field1(Bytes({0x50, 0x01}))), Format::kPerfetto);
  // Undecidable within the head: handed to the XSpace loader, whose error is precise.
  EXPECT_EQ(SniffFormat(metadata_only_plane), Format::kXSpace);
}

TEST(SniffTest, FormatNames) {
  EXPECT_EQ(FormatName(Format::kChromeJson), "chrome-json");
  EXPECT_EQ(FormatName(Format::kXSpace), "xplane");
  EXPECT_EQ(FormatName(Format::kPerfetto), "perfetto");
  EXPECT_EQ(FormatName(Format::kUnknown), "unknown");
}

// Every real trace: decode it, sniff the first 128 bytes, compare with the
// MANIFEST's format column.
TEST(SniffTest, EverySharedTraceSniffsAsItsManifestFormat) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  std::ifstream manifest(testing::SharedTracePath("MANIFEST.tsv"));
  ASSERT_TRUE(manifest.good());
  std::string line;
  std::getline(manifest, line);  // header
  int checked = 0;
  while (std::getline(manifest, line)) {
    std::vector<std::string> cols;
    std::stringstream row(line);
    for (std::string col; std::getline(row, col, '\t');) cols.push_back(col);
    ASSERT_GE(cols.size(), 7u) << line;
    const std::string& format = cols[6];
    Format want = Format::kUnknown;
    if (format.starts_with("chrome-json") || format.starts_with("kineto-json")) want = Format::kChromeJson;
    if (format.starts_with("xplane-pb")) want = Format::kXSpace;  // includes the CORRUPT one
    if (format.starts_with("perfetto-pb")) want = Format::kPerfetto;
    ASSERT_NE(want, Format::kUnknown) << "unexpected MANIFEST format " << format;
    auto in = OpenInput(testing::SharedTracePath(cols[0]), nullptr);
    ASSERT_TRUE(in.ok()) << in.error().ToString();
    EXPECT_EQ(SniffFormat(in->bytes.view().substr(0, 128)), want) << cols[0];
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

}  // namespace
}  // namespace stepline::loaders
