// Chrome JSON loader on bad input: every diagnostic with its byte offset,
// fatal syntax/schema errors with offsets, truncation at many cut points, and
// inputs built to crash or hang a parser.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/chrome_json_loader.h"
#include "loaders/chrome_json/json_validate.h"

namespace stepline::loaders {
namespace {

Result<Trace, LoadError> TryLoad(std::string_view json, int threads = 1, uint64_t chunk_bytes = 0) {
  auto input = DecodeBytes(json, "bad.json", nullptr);
  EXPECT_TRUE(input.ok());
  LoadOptions options;
  options.threads = threads;
  ChromeJsonTuning tuning;
  tuning.chunk_bytes = chunk_bytes;
  return LoadChromeJson(*input, "bad.json", options, nullptr, tuning);
}

Trace Load(std::string_view json, int threads = 1, uint64_t chunk_bytes = 0) {
  auto trace = TryLoad(json, threads, chunk_bytes);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().ToString());
  if (!trace.ok()) return Trace();
  EXPECT_EQ(trace->CheckInvariants(), "");
  return std::move(trace).value();
}

LoadError Fail(std::string_view json, int threads = 1, uint64_t chunk_bytes = 0) {
  auto trace = TryLoad(json, threads, chunk_bytes);
  EXPECT_FALSE(trace.ok());
  return trace.ok() ? LoadError{} : trace.error();
}

std::string Event(int i) {
  return R"({"ph":"X","cat":"cpu_op","name":"op)" + std::to_string(i) + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(1000 + i * 10) + R"(,"dur":5,"args":{"External id":)" + std::to_string(i) + "}}";
}

// `n` events in the object form, with keys before and after the array.
std::string ObjectTrace(int n, std::vector<size_t>* event_ends = nullptr) {
  std::string s = "{\"schemaVersion\": 1,\n  \"traceEvents\": [\n";
  for (int i = 0; i < n; ++i) {
    if (i) s += ",\n";
    s += "  " + Event(i);
    if (event_ends) event_ends->push_back(s.size());
  }
  s += "\n  ],\n  \"traceName\": \"t.json\"\n}\n";
  return s;
}

TEST(ChromeJsonErrorsTest, MissingFieldsAreSkippedWithTheirOffsets) {
  const std::string json = R"([{"name":"no-ph","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"X","name":"no-ts","pid":1,"tid":1,"dur":1},)"
                           R"({"ph":"X","name":"no-dur","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"s","name":"no-id","pid":1,"tid":1,"ts":1},)"
                           R"({"ph":"X","name":"ok","pid":1,"tid":1,"ts":1,"dur":1}])";
  const Trace t = Load(json);
  EXPECT_EQ(t.slices().size(), 1u);
  const auto& e = t.diagnostics().entry(DiagCode::kMissingField);
  ASSERT_EQ(e.count, 4u);
  EXPECT_EQ(e.instances[0].byte_offset, 1u);
  EXPECT_EQ(e.instances[1].byte_offset, json.find(R"({"ph":"X","name":"no-ts")"));
  EXPECT_EQ(e.instances[2].byte_offset, json.find(R"({"ph":"X","name":"no-dur")"));
  EXPECT_EQ(e.instances[3].byte_offset, json.find(R"({"ph":"s")"));
  EXPECT_NE(e.instances[0].detail.find("\"ph\""), std::string::npos);
  EXPECT_NE(e.instances[1].detail.find("\"ts\""), std::string::npos);
}

TEST(ChromeJsonErrorsTest, WrongFieldTypesNameTheFieldAndPointAtTheValue) {
  const std::string json = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"abc","dur":1},)"
                           R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":1,"dur":{}},)"
                           R"({"ph":"X","name":"c","pid":[1],"tid":1,"ts":1,"dur":1},)"
                           R"({"ph":7,"name":"d","pid":1,"tid":1,"ts":1,"dur":1},)"
                           R"({"ph":"X","name":"e","pid":1,"tid":1,"ts":1,"dur":1,"args":"oops"},)"
                           R"(42])";
  const Trace t = Load(json);
  ASSERT_EQ(t.slices().size(), 1u);  // "e" is kept without its args
  EXPECT_EQ(t.str(t.slices().name()[0]), "e");
  const auto& e = t.diagnostics().entry(DiagCode::kBadFieldType);
  ASSERT_EQ(e.count, 6u);
  EXPECT_EQ(e.instances[0].byte_offset, json.find("\"abc\""));
  EXPECT_EQ(e.instances[0].detail, "\"ts\" is not a number (a string)");
  EXPECT_EQ(e.instances[1].byte_offset, json.find("{}"));
  EXPECT_EQ(e.instances[1].detail, "\"dur\" is not a number (an object)");
  EXPECT_EQ(e.instances[2].byte_offset, json.find("[1]"));
  EXPECT_EQ(e.instances[3].byte_offset, json.find("7,\"name\":\"d\""));
  EXPECT_EQ(e.instances[4].byte_offset, json.find("\"oops\""));
  EXPECT_EQ(e.instances[5].byte_offset, json.find("42]"));
}

TEST(ChromeJsonErrorsTest, NegativeDurationIsClampedAndOutOfRangeIsSkipped) {
  const std::string json = R"([{"ph":"X","name":"neg","pid":1,"tid":1,"ts":10,"dur":-3},)"
                           R"({"ph":"X","name":"huge","pid":1,"tid":1,"ts":1e300,"dur":1},)"
                           R"({"ph":"X","name":"big","pid":1,"tid":1,"ts":9223372036854775,"dur":1}])";
  const Trace t = Load(json);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.slices().dur_ns()[0], 0);
  EXPECT_EQ(t.diagnostics().entry(DiagCode::kNegativeDuration).first_offset, 1u);
  const auto& range = t.diagnostics().entry(DiagCode::kOutOfRange);
  ASSERT_EQ(range.count, 2u);
  EXPECT_EQ(range.instances[0].byte_offset, json.find("1e300"));
  EXPECT_EQ(range.instances[1].byte_offset, json.find(R"({"ph":"X","name":"big")"));  // ts + dur overflows
}

TEST(ChromeJsonErrorsTest, InvalidUtf8IsReplacedAndCounted) {
  const std::string json =
      "[{\"ph\":\"X\",\"name\":\"bad\xC3(\xFF\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},"
      "{\"ph\":\"X\",\"name\":\"nul\x01\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":1}]";
  const Trace t = Load(json);
  ASSERT_EQ(t.slices().size(), 2u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "bad\xEF\xBF\xBD(\xEF\xBF\xBD");
  EXPECT_EQ(t.str(t.slices().name()[1]), "nul ");
  const auto& e = t.diagnostics().entry(DiagCode::kInvalidUtf8);
  ASSERT_EQ(e.count, 3u);
  EXPECT_EQ(e.instances[0].byte_offset, json.find('\xC3'));
  EXPECT_EQ(e.instances[1].byte_offset, json.find('\xFF'));
  EXPECT_EQ(e.instances[2].byte_offset, json.find('\x01'));
}

TEST(ChromeJsonErrorsTest, SyntaxErrorInTheMiddleIsFatalWithItsOffset) {
  std::string json = ObjectTrace(3000);
  const size_t at = json.find(",\n  " + Event(1500));
  ASSERT_NE(at, std::string::npos);
  json[at] = ';';
  for (int threads : {1, 2}) {
    for (uint64_t chunk : {uint64_t{0}, uint64_t{4096}}) {
      const LoadError e = Fail(json, threads, chunk);
      EXPECT_EQ(e.code, LoadErrorCode::kJsonSyntax);
      EXPECT_EQ(e.byte_offset, at) << threads << " " << chunk;
      EXPECT_EQ(e.message, "expected ',' or ']' after an event, found ';'");
      EXPECT_EQ(e.path, "bad.json");
    }
  }
  // An unterminated string in the middle is not a truncation: the text goes on.
  std::string quote = ObjectTrace(3000);
  const size_t name = quote.find("\"op1500\"");
  quote.erase(name + 7, 1);  // "op1500,"pid"... the string now swallows the next quote
  const LoadError e = Fail(quote, 2, 4096);
  EXPECT_EQ(e.code, LoadErrorCode::kJsonSyntax);
  EXPECT_GT(e.byte_offset, name);
  EXPECT_LT(e.byte_offset, name + 40);
}

// simdjson hands nested arg values over by skipping brackets, unvalidated;
// kept text must be JSON because output writes it verbatim.
TEST(ChromeJsonErrorsTest, NestedValuesKeptAsTextAreValidated) {
  std::string expected;
  for (std::string_view ok : {"[]", "{}", "[[2,3],[4]]", R"({"a":[1,"x\"y"],"b":{}})", " [1 , 2] ", "[1e9,-2,true,null]"}) {
    EXPECT_EQ(FindJsonSyntaxError(ok, &expected), std::string_view::npos) << ok;
  }
  const struct {
    std::string_view text;
    size_t at;
    std::string_view expected;
  } bad[] = {
      {"[,224,3]", 1, "expected a value or ']'"},
      {"[1,2],[]]", 5, "expected the end of the value"},
      {"[1,2}", 4, "expected ',' or ']' after an array element"},
      {R"({"a" 1})", 5, "expected ':' after an object key"},
      {R"({"a":1,})", 7, "expected a string key"},
      {R"({"a":1)", 6, "expected ',' or '}' after an object member"},
      {R"(["\q"])", 2, "expected a valid escape in a string"},
      {R"(["ab)", 4, "expected the string's closing quote"},
  };
  for (const auto& b : bad) {
    EXPECT_EQ(FindJsonSyntaxError(b.text, &expected), b.at) << b.text;
    EXPECT_EQ(expected, b.expected) << b.text;
  }
  // In a trace: with args kept, the damaged value is a syntax error at its
  // byte, whatever the chunks; skipped (its brackets balance), it is never
  // read and the event loads.
  const std::string json =
      R"({"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2,"args":{"dims":[,2],"k":1}},)"
      R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":2}]})";
  for (int threads : {1, 2}) {
    for (uint64_t chunk : {uint64_t{0}, uint64_t{64}}) {
      const LoadError e = Fail(json, threads, chunk);
      EXPECT_EQ(e.code, LoadErrorCode::kJsonSyntax);
      EXPECT_EQ(e.byte_offset, json.find("[,2]") + 1) << threads << " " << chunk << ": " << e.ToString();
    }
  }
  auto input = DecodeBytes(json, "bad.json", nullptr);
  LoadOptions skip_args;
  skip_args.keep_args = false;
  auto skipped = LoadChromeJson(*input, "bad.json", skip_args, nullptr);
  ASSERT_TRUE(skipped.ok()) << skipped.error().ToString();
  EXPECT_EQ(skipped->slices().size(), 2u);
}

TEST(ChromeJsonErrorsTest, WrongShapesAreSchemaErrors) {
  LoadError e = Fail("  42 ");
  EXPECT_EQ(e.code, LoadErrorCode::kJsonSchema);
  EXPECT_EQ(e.byte_offset, 2u);
  e = Fail(R"({"events": [1]})");
  EXPECT_EQ(e.code, LoadErrorCode::kJsonSchema);
  EXPECT_EQ(e.byte_offset, 14u);
  e = Fail(R"({"metadata": {}, "traceEvents": "no"})");
  EXPECT_EQ(e.code, LoadErrorCode::kJsonSchema);
  EXPECT_EQ(e.byte_offset, 32u);
  EXPECT_EQ(e.message, "\"traceEvents\" is not an array");
  e = Fail(" \n\t ");
  EXPECT_EQ(e.code, LoadErrorCode::kEmpty);
}

// Cuts a trace at many points: every event that ends before the cut loads,
// and the cut is reported with its offset unless the format tolerates it.
TEST(ChromeJsonErrorsTest, TruncationLoadsEveryCompleteEvent) {
  std::vector<size_t> ends;
  const std::string full = ObjectTrace(400, &ends);
  const size_t events_open = full.find('[');
  std::vector<size_t> cuts;
  for (size_t cut = 1; cut < 400; cut += 7) cuts.push_back(cut);
  for (size_t cut = full.size() / 2 - 300; cut < full.size() / 2 + 300; cut += 13) cuts.push_back(cut);
  for (size_t k : {size_t{37}, size_t{200}, size_t{399}}) cuts.push_back(ends[k]);
  for (size_t cut = full.size() - 60; cut < full.size() - 1; ++cut) cuts.push_back(cut);
  for (const size_t cut : cuts) {
    for (int threads : {1, 2}) {
      const Trace t = Load(std::string_view(full).substr(0, cut), threads, 2048);
      const size_t complete = std::upper_bound(ends.begin(), ends.end(), cut) - ends.begin();
      EXPECT_EQ(t.slices().size(), cut > events_open ? complete : 0) << "cut " << cut;
      const auto& e = t.diagnostics().entry(DiagCode::kTruncated);
      ASSERT_EQ(e.count, 1u) << "cut " << cut;
      EXPECT_EQ(e.first_offset, cut);
      EXPECT_EQ(t.diagnostics().total(), 1u) << "cut " << cut;
    }
  }
}

TEST(ChromeJsonErrorsTest, ArrayFormCutBetweenEventsIsToleratedInsideIsNot) {
  std::string json = "[";
  std::vector<size_t> ends;
  for (int i = 0; i < 50; ++i) {
    json += (i ? ",\n" : "") + Event(i);
    ends.push_back(json.size());
  }
  const Trace between = Load(std::string_view(json).substr(0, ends[20] + 2));  // "...},\n"
  EXPECT_EQ(between.slices().size(), 21u);
  EXPECT_TRUE(between.diagnostics().empty());
  const Trace inside = Load(std::string_view(json).substr(0, ends[20] + 9));
  EXPECT_EQ(inside.slices().size(), 21u);
  EXPECT_EQ(inside.diagnostics().entry(DiagCode::kTruncated).first_offset, ends[20] + 9);
}

TEST(ChromeJsonErrorsTest, TinyAndTruncatedDocuments) {
  EXPECT_EQ(Fail("").code, LoadErrorCode::kEmpty);
  Trace t = Load("[");
  EXPECT_EQ(t.slices().size(), 0u);
  EXPECT_TRUE(t.diagnostics().empty());
  for (const char* cut :
       {"{", "{\"traceEvents\":", "{\"traceEvents\": [", "{\"schemaVersion\": 1, \"device", "[{\"ph\":\"X\",\"na"}) {
    t = Load(cut);
    EXPECT_EQ(t.slices().size(), 0u) << cut;
    EXPECT_EQ(t.diagnostics().entry(DiagCode::kTruncated).first_offset, std::string_view(cut).size()) << cut;
  }
}

TEST(ChromeJsonErrorsTest, HostileInputsNeitherCrashNorHang) {
  // 1e6 levels of nesting in args, and as an "event".
  const std::string deep(1000000, '[');
  const std::string undeep(1000000, ']');
  Trace t = Load(R"([{"ph":"X","name":"deep","pid":1,"tid":1,"ts":1,"dur":1,"args":{"a":)" + deep + undeep + "}}]");
  ASSERT_EQ(t.slices().size(), 1u);
  t = Load("[" + deep + undeep + "]");
  EXPECT_EQ(t.slices().size(), 0u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kBadFieldType), 1u);
  // Unbalanced nesting is a syntax error (not a truncation) when text follows.
  EXPECT_EQ(Fail("[" + deep + "}]").code, LoadErrorCode::kJsonSyntax);
  // A 100 MB string.
  const std::string big(100u << 20, 'x');
  t = Load(R"([{"ph":"X","name":")" + big + R"(","pid":1,"tid":1,"ts":1,"dur":1}])", 2);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]).size(), big.size());
  // NUL bytes inside a string (repaired) and outside (syntax error).
  t = Load(std::string("[{\"ph\":\"X\",\"name\":\"a\0b\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1}]", 55));
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "a b");
  const LoadError nul = Fail(std::string("[{}]\0", 5));
  EXPECT_EQ(nul.code, LoadErrorCode::kJsonSyntax);
  EXPECT_EQ(nul.byte_offset, 4u);
  // Huge numbers everywhere.
  t = Load(
      R"([{"ph":"X","name":"n","pid":1e30,"tid":1,"ts":1,"dur":1},)"
      R"({"ph":"X","name":"m","pid":1,"tid":1,"ts":1,"dur":1,"args":{"x":1e400,"y":123456789012345678901234567890}}])");
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kBadFieldType), 1u);
}

}  // namespace
}  // namespace stepline::loaders
