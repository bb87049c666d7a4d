// The limits that protect the machine (docs/formats.md, "Limits"): each input that
// would make memory or the stack run out gets a clear error or a diagnostic.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "loaders/byte_source.h"
#include "loaders/load.h"
#include "loaders/trace_builder.h"
#include "tests/loaders/gzip_for_test.h"
#include "tests/loaders/perfetto_test_encoder.h"

namespace stepline::testing {
namespace {

constexpr uint64_t kTwoTo40 = uint64_t{1} << 40;

std::string Varint(uint64_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}
std::string LenField(uint32_t number, const std::string& payload) {
  return Varint(number << 3 | 2) + Varint(payload.size()) + payload;
}

uint64_t MemAvailable() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

// --- Decompression bombs ----------------------------------------------------

TEST(Limits, DefaultDecodedLimitIsWhatTheMachineCanHoldNow) {
  const uint64_t limit = loaders::DefaultMaxDecodedBytes();
  EXPECT_LE(limit, uint64_t{64} << 30);
  const uint64_t available = MemAvailable();
  if (available > 0) {
    EXPECT_LE(limit, std::max<uint64_t>(available + (uint64_t{512} << 20), uint64_t{256} << 20));
  }
  EXPECT_GE(limit, uint64_t{256} << 20);
}

// 8 MiB of zeros gzip to ~8 KB (ratio ~1000:1): under a 1 MiB limit the
// decoder stops at the limit with kTooLarge naming it, before the rest is
// inflated, and the same holds when the bomb hides inside a second layer.
TEST(Limits, GzipBombStopsAtTheLimitEvenInsideASecondLayer) {
  const std::string bomb = loaders::Gzip(std::string(8u << 20, '\0'));
  ASSERT_LT(bomb.size(), 64u << 10);
  for (const std::string& input : {bomb, loaders::Gzip(bomb)}) {
    auto r = loaders::DecodeBytes(input, "bomb.gz", nullptr, /*max_decoded_bytes=*/1u << 20);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kTooLarge);
    EXPECT_NE(r.error().message.find("decompression bomb"), std::string::npos) << r.error().message;
  }
}

// A zstd frame header may declare a window of 2 GiB for two bytes of data;
// the decoder allocates the declared window, so 10 bytes could cost 2 GiB (a
// fuzz finding, tests/fuzz/regressions/rocprof/). The window is bounded by the
// decoded-size limit: under 64 MiB the frame is refused, not decoded; under a
// 4 GiB limit the same frame decodes.
TEST(Limits, ZstdWindowLargerThanTheLimitIsRefused) {
  // Magic, FHD 0 (window descriptor follows), window 2^(10+21) = 2 GiB, one
  // last RLE block of 2 bytes repeating 'A'.
  const std::string frame("\x28\xb5\x2f\xfd\x00\xa8\x13\x00\x00\x41", 10);
  auto small = loaders::DecodeBytes(frame, "window.zst", nullptr, uint64_t{64} << 20);
  const bool refused = !small.ok() || small->bytes.view().empty();
  EXPECT_TRUE(refused) << "a 2 GiB window was accepted under a 64 MiB limit";
  auto large = loaders::DecodeBytes(frame, "window.zst", nullptr, uint64_t{4} << 30);
  ASSERT_TRUE(large.ok()) << large.error().message;
  EXPECT_EQ(large->bytes.view(), "AA");
}

// --- Protobuf length prefixes of 2^40 ----------------------------------------

TEST(Limits, XSpaceLengthPrefixOf2To40IsAnErrorNotACut) {
  const std::string plane = LenField(1, LenField(2, "/host:CPU"));
  const std::string bytes = plane + Varint(1 << 3 | 2) + Varint(kTwoTo40) + "some bytes";
  auto r = loaders::LoadBytes(bytes, "forged.xplane.pb");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(r.error().byte_offset, plane.size() + 1);
  EXPECT_NE(r.error().message.find(std::to_string(kTwoTo40)), std::string::npos) << r.error().message;
}

// The same length on a line inside the last (cut) plane.
TEST(Limits, XSpaceNestedLengthOf2To40InACutPlaneIsAnError) {
  const std::string inner = LenField(2, "/host:CPU") + Varint(3 << 3 | 2) + Varint(kTwoTo40) + "xyz";
  const std::string bytes = Varint(1 << 3 | 2) + Varint(inner.size() + 100) + inner;  // plane cut short
  auto r = loaders::LoadBytes(bytes, "forged.xplane.pb");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  EXPECT_NE(r.error().message.find("exceeds 2 GiB"), std::string::npos) << r.error().message;
}

TEST(Limits, PerfettoLengthPrefixOf2To40IsAnErrorNotACut) {
  using namespace pftest;
  const std::string head = TraceOf({ProcessTrack(1, 10, "proc")});
  const std::string bytes = head + Varint(1 << 3 | 2) + Varint(kTwoTo40) + "some bytes";
  auto r = loaders::LoadBytes(bytes, "forged.pftrace");
  ASSERT_FALSE(r.ok()) << "loaded as a cut file";
  EXPECT_EQ(r.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  EXPECT_NE(r.error().message.find(std::to_string(kTwoTo40)), std::string::npos) << r.error().message;
}

// --- JSON nesting depth of 10^6 ----------------------------------------------

constexpr int kDeep = 1'000'000;

// Nested args are kept as JSON text (never walked recursively), so depth
// costs neither stack nor more memory than the text.
TEST(Limits, JsonArgNestedAMillionDeepLoadsAsText) {
  const std::string json = R"({"traceEvents":[{"ph":"X","name":"a","ts":1,"dur":2,"pid":1,"tid":1,"args":{"x":)" +
                           std::string(kDeep, '[') + std::string(kDeep, ']') + "}}]}";
  auto r = loaders::LoadBytes(json, "deep.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->slices().size(), 1u);
}

TEST(Limits, JsonEventNestedAMillionDeepIsSkippedWithADiagnostic) {
  std::string json = R"({"traceEvents":[)";
  for (int i = 0; i < kDeep; ++i) json += R"({"a":)";
  json += "1" + std::string(kDeep, '}') + R"(,{"ph":"X","name":"b","ts":1,"dur":2,"pid":1,"tid":1}]})";
  auto r = loaders::LoadBytes(json, "deep.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->slices().size(), 1u) << "the event after the deep one still loads";
  EXPECT_EQ(r->diagnostics().count(DiagCode::kMissingField), 1u);
}

TEST(Limits, JsonDocumentNestedAMillionDeepIsADiagnosticNotACrash) {
  const std::string json = std::string(kDeep, '[') + std::string(kDeep, ']');
  auto r = loaders::LoadBytes(json, "deep.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->slices().size(), 0u);
  EXPECT_EQ(r->diagnostics().count(DiagCode::kBadFieldType), 1u);
}

// Perfetto debug annotations nest dicts in dicts; past 32 levels the rest is
// dropped (annotation_args.h), here with ten thousand levels on the wire.
TEST(Limits, PerfettoAnnotationNestedDeeplyLoads) {
  using namespace pftest;
  Msg value = Msg().Varint(4, 7).Bytes(10, "leaf");
  for (int i = 0; i < 10'000; ++i) value = Msg().Bytes(10, "d").Sub(11, value);
  const Msg event = Msg().Varint(9, 3).Varint(11, 1).Bytes(23, "instant").Sub(4, value);
  const std::string bytes = TraceOf({ProcessTrack(1, 10, "proc"), WithEvent(Packet(1, 5), event)});
  auto r = loaders::LoadBytes(bytes, "deep.pftrace");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->instants().size(), 1u);
  EXPECT_EQ(r->diagnostics().count(DiagCode::kUnsupportedFeature), 1u) << "the levels past 32, counted once";
}

// --- 10^8 distinct names -----------------------------------------------------

// The default limit stops far below 10^8 names and bounds the bytes; the
// mechanism is exercised below with small limits.
TEST(Limits, StringPoolDefaultsStopBeforeAHundredMillionNames) {
  EXPECT_LT(StringPool::kMaxStrings, 100'000'000u);
  EXPECT_LE(StringPool::kMaxBytes, size_t{4} << 30);
}

TEST(Limits, StringPoolPastItsLimitReplacesNewNames) {
  StringPool pool;
  pool.set_limits(100, size_t{1} << 20);
  std::vector<StringId> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back(pool.Intern("name " + std::to_string(i)));
  EXPECT_LE(pool.size(), 100u);
  EXPECT_EQ(pool.overflowed(), 1000u - (pool.size() - 2));  // minus "" and the overflow text
  EXPECT_EQ(pool.Get(ids.back()), StringPool::kOverflowText);
  EXPECT_EQ(pool.Get(ids[5]), "name 5") << "names interned before the limit stay";
  EXPECT_EQ(pool.Intern("name 5"), ids[5]);
  StringPool bytes;
  bytes.set_limits(SIZE_MAX, 1000);
  for (int i = 0; i < 100; ++i) bytes.Intern(std::string(50, static_cast<char>('a' + i % 26)) + std::to_string(i));
  EXPECT_GT(bytes.overflowed(), 0u);
}

TEST(Limits, StringLimitIsADiagnosticOnTheTrace) {
  loaders::TraceBuilder builder("test");
  builder.trace().mutable_strings().set_limits(50, size_t{1} << 20);
  for (int i = 0; i < 200; ++i) builder.Intern("kernel_" + std::to_string(i));
  const Trace t = builder.Finish();
  const auto& e = t.diagnostics().entry(DiagCode::kLimitReached);
  EXPECT_GT(e.count, 100u);
  ASSERT_FALSE(e.instances.empty());
  EXPECT_NE(e.instances[0].detail.find("distinct strings"), std::string::npos) << e.instances[0].detail;
}

}  // namespace
}  // namespace stepline::testing
