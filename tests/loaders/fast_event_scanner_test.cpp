// The tokenizer's fast path (fast_event_scanner.h) gives, chunk by chunk,
// exactly the batch of the simdjson walk (events, args, string ids, problems)
// or gives the chunk up: on every demo scenario, on the shared real traces,
// and on hand-written events for each case it must read or hand back.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "loaders/byte_source.h"
#include "loaders/chrome_json/event_tokenizer.h"
#include "loaders/chrome_json/fast_event_scanner.h"
#include "loaders/chrome_json/json_chunker.h"
#include "demo/demo_generator.h"
#include "export/chrome_json_writer.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// What both paths did with a whole input, chunk by chunk.
struct Comparison {
  size_t chunks = 0;
  uint64_t fast_chunks = 0;
  uint64_t give_ups = 0;
};

// `where` and `index` name the event in a failure message; they are streamed
// only when a check fails (building the text for every event was most of this
// file's run time under the sanitizers).
void ExpectSameEvent(const RawEvent& a, const RawEvent& b, const std::string& where, size_t index) {
  EXPECT_EQ(a.offset, b.offset) << where << " event " << index;
  EXPECT_EQ(a.ts_ns, b.ts_ns) << where << " event " << index;
  EXPECT_EQ(a.dur_ns, b.dur_ns) << where << " event " << index;
  EXPECT_EQ(a.pid, b.pid) << where << " event " << index;
  EXPECT_EQ(a.tid, b.tid) << where << " event " << index;
  EXPECT_EQ(a.id, b.id) << where << " event " << index;
  EXPECT_EQ(a.bind_id, b.bind_id) << where << " event " << index;
  EXPECT_EQ(a.correlation, b.correlation) << where << " event " << index;
  EXPECT_EQ(a.name, b.name) << where << " event " << index;
  EXPECT_EQ(a.cat, b.cat) << where << " event " << index;
  EXPECT_EQ(a.args_begin, b.args_begin) << where << " event " << index;
  EXPECT_EQ(a.args_end, b.args_end) << where << " event " << index;
  EXPECT_EQ(a.phase_text, b.phase_text) << where << " event " << index;
  EXPECT_EQ(a.flags, b.flags) << where << " event " << index;
  EXPECT_EQ(a.ph, b.ph) << where << " event " << index;
  EXPECT_EQ(a.scope, b.scope) << where << " event " << index;
}

void ExpectSameBatch(const RawEventBatch& fast, const RawEventBatch& slow, const std::string& where) {
  ASSERT_EQ(fast.events.size(), slow.events.size()) << where;
  // Field by field only where whole events differ: the check names the field.
  for (size_t i = 0; i < fast.events.size(); ++i) {
    if (!(fast.events[i] == slow.events[i])) ExpectSameEvent(fast.events[i], slow.events[i], where, i);
  }
  ASSERT_EQ(fast.args.size(), slow.args.size()) << where;
  for (size_t i = 0; i < fast.args.size(); ++i) {
    if (fast.args[i] == slow.args[i]) continue;
    EXPECT_EQ(fast.args[i].key, slow.args[i].key) << where << " arg " << i;
    EXPECT_EQ(fast.args[i].type, slow.args[i].type) << where << " arg " << i;
    EXPECT_EQ(fast.args[i].bits, slow.args[i].bits) << where << " arg " << i;
  }
  ASSERT_EQ(fast.strings.size(), slow.strings.size()) << where;
  for (uint32_t i = 0; i < fast.strings.size(); ++i) {
    EXPECT_EQ(fast.strings.Get(i), slow.strings.Get(i)) << where << " string " << i;
  }
  ASSERT_EQ(fast.problems.size(), slow.problems.size()) << where;
  for (size_t i = 0; i < fast.problems.size(); ++i) {
    EXPECT_EQ(fast.problems[i].offset, slow.problems[i].offset) << where;
    EXPECT_EQ(fast.problems[i].code, slow.problems[i].code) << where;
    EXPECT_EQ(fast.problems[i].detail, slow.problems[i].detail) << where;
  }
  EXPECT_EQ(fast.metadata.size(), slow.metadata.size()) << where;
  EXPECT_EQ(fast.input_begin, slow.input_begin) << where;
  EXPECT_EQ(fast.input_end, slow.input_end) << where;
}

// Plans `json` into speculative chunks of about `chunk_bytes` and tokenizes
// every chunk with and without the fast path.
Comparison CompareOnChunks(std::string json, uint64_t chunk_bytes, bool keep_args = true) {
  const size_t size = json.size();
  json.append(64, '\0');  // the padding the loader's buffers carry
  const std::string_view input(json.data(), size);
  Comparison c;
  EventTokenizer fast(keep_args);
  EventTokenizer slow(keep_args);
  slow.set_fast_path(false);
  for (const ChunkSpec& spec : PlanSpeculativeChunks(input, chunk_bytes)) {
    RawEventBatch a, b;
    const TokenizeResult ra = fast.Tokenize(spec, input, &a);
    const TokenizeResult rb = slow.Tokenize(spec, input, &b);
    const std::string where = "chunk [" + std::to_string(spec.begin) + ", " + std::to_string(spec.end) + ")";
    EXPECT_EQ(ra.ok, rb.ok) << where;
    EXPECT_EQ(ra.saw_events, rb.saw_events) << where;
    EXPECT_EQ(ra.failure_offset, rb.failure_offset) << where;
    EXPECT_EQ(ra.failure, rb.failure) << where;
    ExpectSameBatch(a, b, where);
    ++c.chunks;
  }
  EXPECT_EQ(slow.fast_chunks(), 0u);
  c.fast_chunks = fast.fast_chunks();
  c.give_ups = fast.fast_give_ups();
  return c;
}

// A middle chunk holding `events` (the text between two event boundaries),
// scanned with the fast path alone.
bool FastReads(const std::string& events, RawEventBatch* batch, bool keep_args = true) {
  const std::string json = "[{\"ph\":\"i\",\"ts\":0},\n" + events + ",\n{\"ph\":\"i\",\"ts\":0}]";
  ChunkSpec spec;
  spec.begin = json.find('\n') + 1;
  spec.end = json.rfind('\n');
  spec.opener = "[";
  spec.closer = "]";
  return ScanChunkEventsFast(spec, json, keep_args, batch);
}

// The fast path reads `events` itself, and agrees with the simdjson walk.
void ExpectFastAgrees(const std::string& events, bool keep_args = true) {
  RawEventBatch batch;
  EXPECT_TRUE(FastReads(events, &batch, keep_args)) << events;
  const std::string head = "[{\"ph\":\"i\",\"ts\":0},\n";
  std::string json = head;
  for (int i = 0; i < 40; ++i) json += events + ",\n";  // several chunks of it
  json += "{\"ph\":\"i\",\"ts\":0}]";
  const Comparison c = CompareOnChunks(json, 64, keep_args);
  EXPECT_GT(c.fast_chunks, 0u) << events;
  EXPECT_EQ(c.give_ups, 0u) << events;
}

// The fast path hands `events` back, and the simdjson walk's answer stands.
void ExpectGivenUp(const std::string& events) {
  RawEventBatch batch;
  EXPECT_FALSE(FastReads(events, &batch)) << events;
  std::string json = "[{\"ph\":\"i\",\"ts\":0},\n";
  for (int i = 0; i < 6; ++i) json += events + ",\n";
  json += "{\"ph\":\"i\",\"ts\":0}]";
  const Comparison c = CompareOnChunks(json, 64);
  EXPECT_GT(c.give_ups, 0u) << events;
}

TEST(FastEventScannerTest, ReadsThePlainShapes) {
  ExpectFastAgrees(R"j({"ph":"X","pid":701,"tid":84213,"ts":475396.870,"dur":22.256,"name":"cuLaunchKernel","args":{"correlation_id":"13084","group_id":"11"}})j");
  ExpectFastAgrees(R"j({"ph":"X","cat":"kernel","name":"void gemm<128>(float*)","pid":0,"tid":"stream 7","ts":1695835535123456.789,"dur":3.5,"args":{"correlation":42,"grid":[80,1,1],"Input Dims":[[2,3],[]],"stream":7,"blocks per SM":0.5,"ok":true,"no":false,"none":null,"neg":-17,"big":18446744073709551615}})j");
  ExpectFastAgrees(R"j({ "ph" : "B" , "pid" : "1441273664" , "tid" : "worker" , "ts" : "12.5" , "name" : "span" , "args" : { } })j");
  ExpectFastAgrees(R"j({"ph":"s","id":"0x1f","cat":"ac2g","name":"ac2g","pid":1,"tid":2,"ts":3,"bp":"e"},{"ph":"f","bind_id":77,"flow_in":true,"flow_out":false,"ts":4,"pid":1,"tid":2})j");
  ExpectFastAgrees(R"j({"ph":"i","s":"g","scope":"my\"scope","id":"x\\y","ts":5,"name":7,"cat":-3,"tts":9,"sf":{"a":[1,{"b":"c\"d"}]},"stack":["x","y"]})j");
  ExpectFastAgrees(R"j({},{"ph":"C","name":"mem","pid":1,"ts":1,"args":{"bytes":1.25,"count":3}},{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"main"}})j");
  ExpectFastAgrees(R"j({"ph":"X","ph":"B","pid":"p","pid":5,"tid":1,"ts":1,"ts":2,"args":{"memcpy_details":"kind: HtoD","correlation_id":"007"}})j");
  ExpectFastAgrees(R"j({"name":"args before ph","args":{"x":1,"correlation":5},"ph":"X","ts":1,"dur":2,"pid":1,"tid":1})j");
  ExpectFastAgrees(R"j({"ph":"X","ts":-0.0005,"dur":0.00049,"pid":12345678901234567890,"tid":-9223372036854775808,"name":"n","args":{"a":1234567890123456789,"b":12345678901234567890,"c":0.1,"d":-12.5}})j");
  ExpectFastAgrees(R"j({"ph":"X","ts":1234567890123456.5,"dur":"7","pid":-3,"tid":0,"name":"long integer part"})j");
  ExpectFastAgrees("{\"ph\":\"X\",\"name\":\"sixteen bytes in \xF0\x9F\x98\x80 then \xE2\x82\xAC\",\"ts\":1,\"pid\":1,\"tid\":1}");
  ExpectFastAgrees("{\"ph\":\"X\",\"name\":\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\",\"ts\":1,\"dur\":1,\"pid\":1,\"tid\":1}");
}

// Numbers are read 8 digits at a time where 8 bytes are left in the chunk,
// byte by byte near its end: every integer length from 1 to 24 digits with
// 0 to 11 fraction digits, signed, as times, ids and args, in chunks small
// enough that many numbers sit at a chunk's end. (An exponent in an arg is
// simdjson's to convert: the fast path gives such a chunk up.)
TEST(FastEventScannerTest, NumbersOfEveryLengthReadTheSameBothWays) {
  const std::string digits = "918273645091827364509182736450";
  std::string json = "[{\"ph\":\"i\",\"ts\":0},\n";
  for (size_t d = 1; d <= 24; ++d) {
    for (size_t f = 0; f <= 11; ++f) {
      const std::string whole = digits.substr(0, d), fraction = f == 0 ? "" : "." + digits.substr(3, f);
      json += "{\"ph\":\"X\",\"ts\":" + whole + fraction + ",\"dur\":" + whole.substr(0, 9) + fraction +
              ",\"pid\":" + whole + ",\"tid\":-" + whole + ",\"name\":\"n\",\"args\":{\"v\":" + whole + fraction +
              ",\"w\":-" + whole + fraction + ",\"x\":0" + fraction + "}},\n";
    }
  }
  json += "{\"ph\":\"i\",\"ts\":0}]";
  for (const uint64_t chunk_bytes : {64u, 333u, 4096u}) {
    const Comparison c = CompareOnChunks(json, chunk_bytes);
    EXPECT_GT(3 * c.fast_chunks, c.chunks) << chunk_bytes;  // past 19 digits a chunk goes to simdjson
  }
}

// The number reader's fast shapes (up to 16 integer digits, alone or with
// exactly 3 decimals; times past int64's nanoseconds leave them) and their neighbours, each followed by every byte that
// may or may not end a number: the same answers as the simdjson walk, read or
// handed back. Leading zeros, a bare point, exponents and a fourth decimal
// must each leave the fast shape.
TEST(FastEventScannerTest, NumberShapesAndTheirNeighboursReadTheSameBothWays) {
  // clang-format off
  const char* const numbers[] = {
      "0", "7", "0.000", "0.5", "7.000", "1234567", "12345678", "1234567.891", "12345678.891", "1.2345",
      "1.23", "00.000", "01", "1.", "1.234e5", "1.234E+5", "1.234e", "0.0001", "9999999.999", "-1.234",
      "1.234.5", "10.0000", "12345678.123", "123456789012345", "1695835535123456.789",
      "9223372036854774.807", "9223372036854775.807", "9999999999999999.999", "12345678901234567",
      "0000000000000000.000", "1234567890123456.7890"};
  // clang-format on
  const char* const followers[] = {",", "}", " ,", "\n}", "x,", "e,", ".,", "0,"};
  for (const char* number : numbers) {
    for (const char* follower : followers) {
      const std::string n = std::string(number) + follower;
      std::string json = "[{\"ph\":\"i\",\"ts\":0},\n";
      for (int i = 0; i < 8; ++i) {
        json += "{\"ph\":\"X\",\"ts\":" + n + "\"dur\":" + n + "\"pid\":" + n + "\"tid\":" + n +
                "\"name\":\"n\",\"args\":{\"v\":" + n + "\"a\":[" + n + "2]}},\n";
      }
      json += "{\"ph\":\"i\",\"ts\":0}]";
      const std::string_view text(number), after(follower);
      // JSON numbers the fast path converts itself (not "01", "1.", exponents), then a separator:
      // the fast path must have read chunks of them, not handed every one to the walk.
      const bool fast_readable = text != "01" && text != "00.000" && text != "1." && text != "1.234.5" &&
                                 text != "0000000000000000.000" && text != "9999999999999999.999" &&
                                 text != "12345678901234567" &&  // as a ts, past int64 nanoseconds: a problem
                                 text.find_first_of("eE") == std::string_view::npos && (after == "," || after == " ,");
      for (const uint64_t chunk_bytes : {64u, 4096u}) {
        const Comparison c = CompareOnChunks(json, chunk_bytes);
        if (fast_readable && chunk_bytes == 64) {  // 4096: one chunk, the whole text, is the walk's
          EXPECT_GT(c.fast_chunks, 0u) << n;
        }
      }
    }
  }
  ExpectFastAgrees(
      R"j({"ph":"X","ts":1234567.891,"dur":0.000,"pid":7,"tid":1234567,"name":"n","args":{"v":9999999.999,"w":[1,22,333]}})j");
}

TEST(FastEventScannerTest, WithoutArgsSkipsWhatTheWalkSkips) {
  ExpectFastAgrees(R"j({"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"k","args":{"correlation":5,"junk":[1,2,{"a":"b"}],"s":"t\"u","d":1e400}})j",
                   /*keep_args=*/false);
}

TEST(FastEventScannerTest, HandsBackWhatNeedsTheWalk) {
  ExpectGivenUp(R"j({"ph":"X","name":"esc\"aped","ts":1,"dur":1,"pid":1,"tid":1})j");     // unescaping
  ExpectGivenUp(R"j({"p\u0068":"X","ts":1,"pid":1,"tid":1})j");                          // escaped key
  ExpectGivenUp(R"j({"ph":"X","ts":"soon","pid":1,"tid":1})j");                           // a problem
  ExpectGivenUp(R"j({"ph":"X","ts":1e30,"pid":1,"tid":1})j");                             // out of range
  ExpectGivenUp(R"j({"ts":1,"pid":1,"tid":1})j");                                         // no "ph"
  ExpectGivenUp(R"j({"ph":"XY","ts":1,"pid":1,"tid":1})j");                               // bad phase
  ExpectGivenUp(R"j({"ph":"b","id2":{"local":"0x5"},"ts":1,"pid":1,"tid":1})j");          // id2
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":{},"tid":1})j");                               // pid an object
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":[1]})j");                     // args not an object
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":{"v":-0}})j");                 // -0
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":{"v":1.5e3}})j");              // an exponent
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":{"v":99999999999999999999}})j");  // beyond uint64
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":{"v":"a\nb"}})j");              // escaped value
  ExpectGivenUp("{\"ph\":\"X\",\"name\":\"raw\ttab\",\"ts\":1,\"pid\":1,\"tid\":1}");        // control byte
  ExpectGivenUp("{\"ph\":\"X\",\"name\":\"bad \xC3\x28\",\"ts\":1,\"pid\":1,\"tid\":1}");    // invalid UTF-8
  ExpectGivenUp("{\"ph\":\"X\",\"name\":\"past the first sixteen bytes \xED\xA0\x80\",\"ts\":1,\"pid\":1,\"tid\":1}");  // a surrogate
  ExpectGivenUp("{\"ph\":\"X\",\"name\":\"cut \xE2\x82\",\"ts\":1,\"pid\":1,\"tid\":1}");  // a cut sequence
  // The byte after a backslash is checked as simdjson checks it, in values
  // the walk skips too (a review finding): a control byte, invalid UTF-8.
  ExpectGivenUp("{\"ph\":\"X\",\"ts\":1,\"cname\":\"\\\x01\"}");
  ExpectGivenUp("{\"ph\":\"X\",\"ts\":1,\"id\":\"\\\xFF\"}");
  ExpectGivenUp("{\"ph\":\"X\",\"ts\":1,\"s\":\"\\\xC3\"}");
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"args":{"v":-9223372036854775808}})j");  // INT64_MIN
  ExpectGivenUp("{\"ph\":\"X\",\"ts\":1,\"x\":\"a\x02\"}");  // a control byte in the scalar tail
  ExpectGivenUp(R"j({"ph":"i","ts":0},7,{"ph":"i","ts":0})j");                            // not an object
  ExpectGivenUp(R"j({"ph":"X","ts":01,"pid":1,"tid":1})j");                               // not JSON
  ExpectGivenUp(R"j({"ph":"X","ts":1,"pid":1,"tid":1,"x":tru})j");                        // not JSON
  // A one-byte phase is read without the string scan: the bytes it must still refuse.
  ExpectGivenUp("{\"ph\":\"\x01\",\"ts\":1,\"pid\":1,\"tid\":1}");  // a control byte
  ExpectGivenUp("{\"ph\":\"\xC3\",\"ts\":1,\"pid\":1,\"tid\":1}");  // a lone UTF-8 lead byte
  ExpectGivenUp("{\"ph\":\"\\\",\"ts\":1,\"pid\":1,\"tid\":1}");    // an escape: not a closed string
  ExpectGivenUp("{\"ph\":\"\"\",\"ts\":1,\"pid\":1,\"tid\":1}");    // an empty phase, then a stray quote
}

// Indented events ("\n  {", as Kineto writes them, with spaces after each
// colon and comma): the fast path reads every middle chunk, the blanks
// before the next chunk's first brace included, and agrees with the walk.
TEST(FastEventScannerTest, IndentedEventsAreRead) {
  std::string json = "{\"traceEvents\": [";
  for (int i = 0; i < 400; ++i) {
    json += std::string(i == 0 ? "" : ",") + "\n  {\"ph\": \"X\", \"ts\": " + std::to_string(i) +
            ", \"dur\": 1, \"pid\": 1, \"tid\": 2, \"name\": \"k\"}";
  }
  json += "\n]}";
  for (const uint64_t chunk_bytes : {64u, 200u, 1000u}) {
    const Comparison c = CompareOnChunks(json, chunk_bytes);
    EXPECT_GT(c.fast_chunks, 0u) << chunk_bytes;
    EXPECT_EQ(c.give_ups, 0u) << chunk_bytes;
  }
}

TEST(FastEventScannerTest, ReadsOnlyMiddleChunks) {
  ChunkSpec spec;
  spec.opener = "[";
  spec.closer = "]";
  EXPECT_TRUE(FastPathApplies(spec));
  spec.blanks.push_back(3);
  EXPECT_FALSE(FastPathApplies(spec));
  spec.blanks.clear();
  spec.starts_document = true;
  EXPECT_FALSE(FastPathApplies(spec));
  spec.starts_document = false;
  spec.ends_document = true;
  EXPECT_FALSE(FastPathApplies(spec));
}

TEST(FastEventScannerTest, SplitsInsideStringsAreNotRead) {
  // Speculative splits land inside this string (it holds "},{"): each such
  // chunk must fail in both paths alike.
  std::string json = "[{\"ph\":\"i\",\"ts\":0},\n";
  for (int i = 0; i < 30; ++i) {
    json += R"j({"ph":"X","ts":1,"dur":1,"pid":1,"tid":1,"name":"a\"},{\"ph\":\"X\"b"},)j";
    json += "\n";
  }
  json += "{\"ph\":\"i\",\"ts\":0}]";
  CompareOnChunks(json, 48);
}

TEST(FastEventScannerTest, EveryDemoScenarioReadsTheSameBothWays) {
  for (const demo::DemoScenarioInfo& scenario : demo::DemoScenarios()) {
    for (const demo::DemoStyle style : {demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch}) {
      demo::DemoOptions options;
      options.scenario = std::string(scenario.name);
      options.style = style;
      options.steps = 2;
      options.compute_truth = false;
      auto trace = demo::GenerateDemoTrace(options);
      ASSERT_TRUE(trace.ok()) << trace.error();
      const std::string json = exports::ChromeJsonText(*trace);
      for (const bool keep_args : {true, style == demo::DemoStyle::kTensorFlow}) {
        SCOPED_TRACE(std::string(scenario.name) + (keep_args ? "" : " without args"));
        const Comparison c = CompareOnChunks(json, 16 << 10, keep_args);
        EXPECT_GT(c.chunks, 4u);
        EXPECT_EQ(c.fast_chunks + 2, c.chunks);  // every middle chunk
        EXPECT_EQ(c.give_ups, 0u);
      }
    }
  }
}

TEST(FastEventScannerTest, SharedRealTracesReadTheSameBothWays) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  namespace fs = std::filesystem;
  size_t files = 0;
  uint64_t fast = 0;
  for (const auto& entry : fs::recursive_directory_iterator(testing::SharedTracesDir())) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || (!path.ends_with(".json") && !path.ends_with(".json.gz"))) continue;
    auto input = OpenInput(path, nullptr);
    ASSERT_TRUE(input.ok()) << path;
    SCOPED_TRACE(path);
    const std::string_view text = input->bytes.view();
    const Comparison c = CompareOnChunks(std::string(text.substr(0, std::min<size_t>(text.size(), 6 << 20))), 256 << 10);
    fast += c.fast_chunks;
    ++files;
  }
  EXPECT_GT(files, 30u);
  EXPECT_GT(fast, 100u);
}

}  // namespace
}  // namespace stepline::loaders
