// The Chrome JSON loader's building blocks without the importer: exact
// decimal conversion (json_number), the exact structure scan (json_scanner)
// and chunk planning (json_chunker).
#include <gtest/gtest.h>

#include <string>

#include "loaders/chrome_json/json_chunker.h"
#include "loaders/chrome_json/json_number.h"
#include "loaders/chrome_json/json_scanner.h"

namespace stepline::loaders {
namespace {

int64_t Ns(std::string_view text) {
  int64_t ns = -777;
  EXPECT_EQ(ParseMicrosToNs(text, &ns), NumberStatus::kOk) << text;
  return ns;
}

TEST(ChromeJsonNumberTest, MicrosecondsBecomeExactNanoseconds) {
  // A double holds ~15.9 significant digits: these need 19.
  EXPECT_EQ(Ns("1695835535123456.789"), 1695835535123456789);
  EXPECT_EQ(Ns("1669783687464181"), 1669783687464181000);
  EXPECT_EQ(Ns("1419116105356.596"), 1419116105356596);
  EXPECT_EQ(Ns("0"), 0);
  EXPECT_EQ(Ns("-12.5"), -12500);
  EXPECT_EQ(Ns("5.74"), 5740);
  EXPECT_EQ(Ns("  42 "), 42000);  // numeric strings may carry spaces
}

TEST(ChromeJsonNumberTest, ExponentsWork) {
  EXPECT_EQ(Ns("1.5e3"), 1500000);
  EXPECT_EQ(Ns("1.5E+3"), 1500000);
  EXPECT_EQ(Ns("15e-1"), 1500);
  EXPECT_EQ(Ns("1e-300"), 0);
  EXPECT_EQ(Ns("1.695835535123456789e15"), 1695835535123456789);
}

TEST(ChromeJsonNumberTest, RoundsHalfAwayFromZeroOnTheFirstDroppedDigit) {
  EXPECT_EQ(Ns("0.0005"), 1);
  EXPECT_EQ(Ns("-0.0005"), -1);
  EXPECT_EQ(Ns("0.00049999"), 0);
  EXPECT_EQ(Ns("1.2345"), 1235);
  EXPECT_EQ(Ns("1.2344999"), 1234);
  EXPECT_EQ(Ns("1000.0000000001"), 1000000);
  EXPECT_EQ(Ns("2.5e-3"), 3);  // 2.5 ns
}

TEST(ChromeJsonNumberTest, RangeAndSyntaxAreChecked) {
  int64_t ns = 0;
  EXPECT_EQ(ParseMicrosToNs("9223372036854775.807", &ns), NumberStatus::kOk);
  EXPECT_EQ(ns, INT64_MAX);
  EXPECT_EQ(ParseMicrosToNs("-9223372036854775.808", &ns), NumberStatus::kOk);
  EXPECT_EQ(ns, INT64_MIN);
  EXPECT_EQ(ParseMicrosToNs("9223372036854775.808", &ns), NumberStatus::kOutOfRange);
  EXPECT_EQ(ParseMicrosToNs("1e300", &ns), NumberStatus::kOutOfRange);
  EXPECT_EQ(ParseMicrosToNs("123456789012345678901234567890", &ns), NumberStatus::kOutOfRange);
  for (const char* bad : {"", "abc", "1.", ".5", "1e", "--1", "1.2.3", "0x10", "1e+", "12a"}) {
    EXPECT_EQ(ParseMicrosToNs(bad, &ns), NumberStatus::kNotANumber) << bad;
  }
}

TEST(ChromeJsonNumberTest, CanonicalDecimalsGiveTheirTextBack) {
  for (const char* good : {"0", "7", "11253", "9999999999999999999", "10000000000000000000", "18446744073709551615"}) {
    uint64_t v = 1;
    EXPECT_TRUE(ParseCanonicalDecimal(good, &v)) << good;
    EXPECT_EQ(std::to_string(v), good);
  }
  // Each of these would come back as other text: held as strings instead.
  for (const char* other :
       {"", "00", "007", "-3", "+3", " 3", "3 ", "1.0", "0x1f", "18446744073709551616", "99999999999999999999",
        "123456789012345678901", "123456789012345678x", "1234567890123456789 ", "12/4"}) {
    uint64_t v = 1;
    EXPECT_FALSE(ParseCanonicalDecimal(other, &v)) << other;
  }
}

TEST(ChromeJsonNumberTest, IntegerKeysAndIds) {
  int64_t key = 0;
  EXPECT_TRUE(ParseIntegerKey("-17", &key));
  EXPECT_EQ(key, -17);
  EXPECT_TRUE(ParseIntegerKey("3735928559", &key));
  EXPECT_EQ(key, 3735928559);
  EXPECT_TRUE(ParseIntegerKey("18446744073709551615", &key));
  EXPECT_EQ(key, -1);  // the uint64 bit pattern
  EXPECT_FALSE(ParseIntegerKey("18446744073709551616", &key));
  EXPECT_FALSE(ParseIntegerKey("stream 7", &key));
  EXPECT_FALSE(ParseIntegerKey("1.5", &key));
  uint64_t id = 0;
  EXPECT_TRUE(ParseIdText("0x1F", &id));
  EXPECT_EQ(id, 31u);
  EXPECT_TRUE(ParseIdText("1234", &id));
  EXPECT_EQ(id, 1234u);
  EXPECT_FALSE(ParseIdText("0xZZ", &id));
  EXPECT_FALSE(ParseIdText("abc", &id));
}

ScanReport Scan(std::string_view text, uint64_t split_bytes = 0) {
  return ScanTraceJson(text, ScanStart{}, split_bytes);
}

TEST(ChromeJsonScannerTest, CompleteDocumentsOfBothForms) {
  ScanReport r = Scan(R"({"a": [1, {"b": "}, {"}], "traceEvents": [{"x": 1}, {"y": "\""}], "z": null})");
  EXPECT_EQ(r.status, ScanReport::Status::kComplete) << r.message;
  EXPECT_TRUE(r.object_form);
  EXPECT_TRUE(r.found_events);
  EXPECT_TRUE(r.closer.empty());
  r = Scan("\xEF\xBB\xBF [ {} , {\"ph\":\"X\"} ] \n");
  EXPECT_EQ(r.status, ScanReport::Status::kComplete) << r.message;
  EXPECT_FALSE(r.object_form);
}

TEST(ChromeJsonScannerTest, SplitsAreExactEventStarts) {
  // Strings holding "}, {" and nested arrays of objects must not split.
  const std::string text = R"([{"n": "}, {"}, {"a": [{"q": 1}, {"q": 2}]}, {"n": 3}, {"n": 4}])";
  const ScanReport r = Scan(text, 1);
  ASSERT_EQ(r.status, ScanReport::Status::kComplete) << r.message;
  std::vector<uint64_t> expected;
  for (std::string_view marker : {R"({"a")", R"({"n": 3})", R"({"n": 4})"}) {
    expected.push_back(text.find(marker));
  }
  EXPECT_EQ(r.splits, expected);
}

TEST(ChromeJsonScannerTest, TrailingCommaAndMissingCloseAreTolerated) {
  const std::string text = R"([{"a": 1}, {"b": 2},  ])";
  ScanReport r = Scan(text);
  EXPECT_EQ(r.status, ScanReport::Status::kComplete) << r.message;
  ASSERT_EQ(r.blanks.size(), 1u);
  EXPECT_EQ(r.blanks[0], text.find(",  ]"));
  r = Scan(R"([{"a": 1}, {"b": 2},)");
  EXPECT_EQ(r.status, ScanReport::Status::kComplete);
  EXPECT_TRUE(r.missing_close_tolerated);
  EXPECT_EQ(r.closer, "]");
  EXPECT_EQ(r.valid_end, std::string(R"([{"a": 1}, {"b": 2})").size());
}

TEST(ChromeJsonScannerTest, TruncationKeepsTheCompletePrefix) {
  const std::string head = R"({"traceEvents": [{"a": 1}, {"b": 2})";
  ScanReport r = Scan(head + R"(, {"c": "unfini)");
  EXPECT_EQ(r.status, ScanReport::Status::kTruncated);
  EXPECT_EQ(r.valid_end, head.size());
  EXPECT_EQ(r.closer, "]}");
  // Cut inside a later top-level key: every event is complete.
  const std::string events = R"({"traceEvents": [{"a": 1}], "x": 5)";
  r = Scan(events + R"(, "deviceProperties": [{"id": 0)");
  EXPECT_EQ(r.status, ScanReport::Status::kTruncated);
  EXPECT_EQ(r.valid_end, events.size());
  EXPECT_EQ(r.closer, "}");
  // A number at the very end may be cut short too.
  r = Scan(R"([{"ts": 12)");
  EXPECT_EQ(r.status, ScanReport::Status::kTruncated);
  EXPECT_EQ(r.valid_end, 1u);
  r = Scan("{");
  EXPECT_EQ(r.status, ScanReport::Status::kTruncated);
  EXPECT_EQ(r.valid_end, 1u);
  EXPECT_EQ(r.closer, "}");
}

TEST(ChromeJsonScannerTest, SyntaxErrorsNameWhatWasExpectedAndWhere) {
  std::string text = R"([{"a": 1} {"b": 2}])";
  ScanReport r = Scan(text);
  EXPECT_EQ(r.status, ScanReport::Status::kSyntaxError);
  EXPECT_EQ(r.error_offset, text.find(" {\"b\"") + 1);
  EXPECT_EQ(r.message, "expected ',' or ']' after an event, found '{'");
  text = R"({"traceEvents": [{"a" 1}]})";
  r = Scan(text);
  EXPECT_EQ(r.status, ScanReport::Status::kSyntaxError);
  EXPECT_EQ(r.error_offset, text.find(" 1}") + 1);
  EXPECT_EQ(r.message, "expected ':' after an object key, found '1'");
  r = Scan(R"([{"a": "\q"}])");
  EXPECT_EQ(r.status, ScanReport::Status::kSyntaxError);
  EXPECT_EQ(r.error_offset, 8u);
  r = Scan(R"([{"a": [1, 2}])");
  EXPECT_EQ(r.status, ScanReport::Status::kSyntaxError);
  EXPECT_EQ(r.error_offset, 12u);
  r = Scan(R"([{}] x)");
  EXPECT_EQ(r.status, ScanReport::Status::kSyntaxError);
  EXPECT_EQ(r.error_offset, 5u);
}

TEST(ChromeJsonScannerTest, SchemaErrors) {
  ScanReport r = Scan("  42");
  EXPECT_EQ(r.status, ScanReport::Status::kSchemaError);
  EXPECT_EQ(r.error_offset, 2u);
  r = Scan(R"({"events": []})");
  EXPECT_EQ(r.status, ScanReport::Status::kSchemaError);
  EXPECT_EQ(r.error_offset, 13u);
  r = Scan(R"({"traceEvents": {}})");
  EXPECT_EQ(r.status, ScanReport::Status::kSchemaError);
  EXPECT_EQ(r.error_offset, 16u);
}

TEST(ChromeJsonScannerTest, ResumesAtAProvenEventBoundary) {
  const std::string text = R"({"traceEvents": [{"a": 1}, {"b": 2}, {"c": 3}], "k": 1})";
  const uint64_t start = text.find(R"({"b")");
  const ScanReport r = ScanTraceJson(text, ScanStart{start, false, true}, 1);
  ASSERT_EQ(r.status, ScanReport::Status::kComplete) << r.message;
  ASSERT_EQ(r.splits.size(), 1u);
  EXPECT_EQ(r.splits[0], text.find(R"({"c")"));
}

TEST(ChromeJsonChunkerTest, SpeculativeChunksWrapTheirSlices) {
  std::string text = R"({"schemaVersion": 1, "traceEvents": [)";
  for (int i = 0; i < 100; ++i)
    text += (i ? ",\n  " : "") + std::string(R"({"ph": "X", "n": )") + std::to_string(i) + "}";
  text += R"(], "tail": true})";
  const std::vector<ChunkSpec> chunks = PlanSpeculativeChunks(text, 256);
  ASSERT_GT(chunks.size(), 3u);
  EXPECT_TRUE(chunks.front().starts_document);
  EXPECT_EQ(chunks.front().begin, 0u);
  EXPECT_EQ(chunks.front().closer, "]}");
  EXPECT_TRUE(chunks.back().ends_document);
  EXPECT_EQ(chunks.back().end, text.size());
  EXPECT_EQ(chunks.back().opener, R"({"traceEvents":[)");
  for (size_t i = 1; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].begin, chunks[i - 1].end);
    EXPECT_EQ(text[chunks[i].begin], '{');
    if (i + 1 < chunks.size()) {
      EXPECT_EQ(chunks[i].opener, "[");
      EXPECT_EQ(chunks[i].closer, "]");
    }
  }
  // Small inputs stay whole.
  EXPECT_EQ(PlanSpeculativeChunks(text, 1 << 20).size(), 1u);
}

// The head and the end of the document go to simdjson, not the fast scanner,
// so the plan keeps them to about 1/16 of a chunk; the middle chunks hold the rest.
TEST(ChromeJsonChunkerTest, TheDocumentsHeadAndEndAreShortChunks) {
  std::string text = R"({"schemaVersion": 1, "traceEvents": [)";
  const uint64_t events_at = text.size();
  for (int i = 0; i < 4000; ++i)
    text += (i ? ", " : "") + std::string(R"({"ph": "X", "name": "kernel", "n": )") + std::to_string(i) + "}";
  text += R"(], "tail": true})";
  constexpr uint64_t kChunk = 16384, kEvent = 48;  // each event is under 48 bytes with its separator
  const std::vector<ChunkSpec> chunks = PlanSpeculativeChunks(text, kChunk);
  ASSERT_GT(chunks.size(), 4u);
  EXPECT_TRUE(chunks.front().starts_document);
  EXPECT_LE(chunks.front().end, events_at + kChunk / 16 + kEvent);
  EXPECT_TRUE(chunks.back().ends_document);
  EXPECT_LE(chunks.back().end - chunks.back().begin, kChunk / 16 + kEvent);
  for (size_t i = 1; i + 1 < chunks.size(); ++i) {
    EXPECT_FALSE(chunks[i].starts_document || chunks[i].ends_document) << i;
    EXPECT_EQ(chunks[i].begin, chunks[i - 1].end);
    EXPECT_LE(chunks[i].end - chunks[i].begin, kChunk * 3 / 2 + kEvent) << i;
  }
  EXPECT_EQ(chunks.back().begin, chunks[chunks.size() - 2].end);
}

}  // namespace
}  // namespace stepline::loaders
