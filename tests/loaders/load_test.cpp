// Tests for the load entry points (load.h) and LoadError formatting: empty,
// unknown and unsupported content, dispatch to the format loaders, and the
// TraceInfo facts stamped after loading (path, sizes, compression).
#include "loaders/load.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "loaders/load_error.h"
#include "tests/loaders/gzip_for_test.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

// A valid Chrome trace of `n` complete events on one thread.
std::string ChromeJson(int n) {
  std::string s = "{\"traceEvents\":[\n";
  for (int i = 0; i < n; ++i) {
    s += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i % 13) + "\",\"ts\":" + std::to_string(i * 10) +
         ",\"dur\":5,\"pid\":1,\"tid\":1},\n";
  }
  s += "{\"ph\":\"i\",\"name\":\"end\",\"ts\":0,\"pid\":1,\"tid\":1,\"s\":\"t\"}]}\n";
  return s;
}

std::string WriteTemp(const std::string& name, std::string_view content) {
  // The pid keeps concurrent test runs (ctest -j) apart.
  const std::string path =
      (std::filesystem::temp_directory_path() / ("stepline_load_" + std::to_string(::getpid()) + "_" + name)).string();
  std::ofstream(path, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  return path;
}

// ---------------------------------------------------------------------------
// LoadError

TEST(LoadErrorTest, ToStringOmitsUnknownParts) {
  LoadError e;
  e.code = LoadErrorCode::kJsonSyntax;
  e.message = "\"ts\" is not a number";
  EXPECT_EQ(e.ToString(), "\"ts\" is not a number");
  e.path = "a.json";
  EXPECT_EQ(e.ToString(), "a.json: \"ts\" is not a number");
  e.byte_offset = 1204332;
  EXPECT_EQ(e.ToString(), "a.json: byte 1204332: \"ts\" is not a number");
  e.compressed_offset = 4096;
  EXPECT_EQ(e.ToString(), "a.json: byte 1204332 (compressed byte 4096): \"ts\" is not a number");
  e.byte_offset = LoadError::kNoOffset;
  EXPECT_EQ(e.ToString(), "a.json: compressed byte 4096: \"ts\" is not a number");
  e.path.clear();
  EXPECT_EQ(e.ToString(), "compressed byte 4096: \"ts\" is not a number");
  e.message.clear();
  EXPECT_EQ(e.ToString(), "compressed byte 4096: json_syntax");
}

TEST(LoadErrorTest, CodeNamesAreDistinctSnakeCase) {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(LoadErrorCode::kCancelled); ++c) {
    const std::string_view name = LoadErrorCodeName(static_cast<LoadErrorCode>(c));
    EXPECT_NE(name, "unknown_error") << c;
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_"), std::string_view::npos) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(LoadErrorCode::kCancelled) + 1);
  EXPECT_EQ(LoadErrorCodeName(LoadErrorCode::kJsonSyntax), "json_syntax");
  EXPECT_EQ(LoadErrorCodeName(LoadErrorCode::kIoError), "io_error");
}

// ---------------------------------------------------------------------------
// Errors decided before any format loader runs

TEST(LoadTest, EmptyInputIsEmpty) {
  auto r = LoadBytes("", "empty.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kEmpty);
  EXPECT_EQ(r.error().path, "empty.json");

  auto gz = LoadBytes(Gzip(""), "empty.json.gz");
  ASSERT_FALSE(gz.ok());
  EXPECT_EQ(gz.error().code, LoadErrorCode::kEmpty);
  EXPECT_NE(gz.error().message.find("gzip content is empty"), std::string::npos) << gz.error().message;
}

TEST(LoadTest, UnknownContentShowsItsFirstBytesAndWhatWasExpected) {
  auto r = LoadBytes("hello, world", "notes.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kUnknownFormat);
  EXPECT_EQ(r.error().byte_offset, 0u);
  const std::string& m = r.error().message;
  EXPECT_NE(m.find("68 65 6C 6C 6F 2C"), std::string::npos) << m;
  EXPECT_NE(m.find("\"hello, world\""), std::string::npos) << m;
  EXPECT_NE(m.find("Chrome trace JSON"), std::string::npos) << m;
  EXPECT_NE(m.find("XSpace"), std::string::npos) << m;
}

TEST(LoadTest, KnownWrongFilesGetAHint) {
  auto zip = LoadBytes(std::string("PK\x03\x04rest", 8), "trace.zip");
  ASSERT_FALSE(zip.ok());
  EXPECT_EQ(zip.error().code, LoadErrorCode::kUnknownFormat);
  EXPECT_NE(zip.error().message.find("zip archive"), std::string::npos) << zip.error().message;

  const std::string riegeli("\x83\xAF\x70\xD1\x0D\x88\x4A\x3F\0\0\0\0\0\0\0\0\x40", 17);
  auto rg = LoadBytes(riegeli, "host.xplane.riegeli");
  ASSERT_FALSE(rg.ok());
  EXPECT_EQ(rg.error().code, LoadErrorCode::kUnsupportedFormat);
  EXPECT_NE(rg.error().message.find("Riegeli"), std::string::npos) << rg.error().message;

  auto html = LoadBytes("<!DOCTYPE html><html>", "trace.json");
  ASSERT_FALSE(html.ok());
  EXPECT_NE(html.error().message.find("HTML"), std::string::npos) << html.error().message;
}

TEST(LoadTest, PerfettoDispatchesToThePerfettoLoader) {
  const std::string packet = std::string("\x0A\x04\x50\x01\x40\x05", 6);  // TracePacket{seq id, timestamp}
  auto r = LoadBytes(packet, "trace.pftrace");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->info().format, "perfetto");
  EXPECT_EQ(r->slices().size(), 0u);
  EXPECT_TRUE(r->diagnostics().empty());
}

TEST(LoadTest, MissingFileIsIoErrorWithPath) {
  auto r = LoadFile("/nonexistent/stepline/x.xplane.pb");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kIoError);
  EXPECT_NE(r.error().ToString().find("/nonexistent/stepline/x.xplane.pb: "), std::string::npos);
}

TEST(LoadTest, CorruptCompressionBeforeAnyByteIsDecompressFailed) {
  std::string gz = Gzip(ChromeJson(100));
  for (size_t i = 10; i < gz.size(); ++i) gz[i] = static_cast<char>(0xFF);
  auto r = LoadBytes(gz, "bad.json.gz");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kDecompressFailed);
  EXPECT_NE(r.error().compressed_offset, LoadError::kNoOffset);
  EXPECT_NE(r.error().ToString().find("compressed byte"), std::string::npos);
}

TEST(LoadTest, CancelledBeforeDecompression) {
  LoadProgress progress;
  progress.cancel = true;
  auto r = LoadBytes(Gzip(ChromeJson(100)), "c.json.gz", {}, &progress);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kCancelled);
}

// ---------------------------------------------------------------------------
// Dispatch to the format loaders; TraceInfo

TEST(LoadTest, InMemoryJsonFillsTraceInfo) {
  const std::string json = ChromeJson(50);
  auto r = LoadBytes(json, "mem.json");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  const TraceInfo& info = r->info();
  EXPECT_EQ(info.format, "chrome-json");
  EXPECT_EQ(info.source_path, "");  // in-memory input
  EXPECT_EQ(info.input_bytes, json.size());
  EXPECT_EQ(info.file_bytes, json.size());
  EXPECT_EQ(info.compression, "");
}

TEST(LoadTest, GzipFileFillsTraceInfo) {
  const std::string json = ChromeJson(2000);
  const std::string gz = Gzip(json);
  const std::string path = WriteTemp("info.json.gz", gz);
  auto r = LoadFile(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  const TraceInfo& info = r->info();
  EXPECT_EQ(info.format, "chrome-json");
  EXPECT_EQ(info.source_path, path);
  EXPECT_EQ(info.input_bytes, json.size());
  EXPECT_EQ(info.file_bytes, gz.size());
  EXPECT_EQ(info.compression, "gzip");
}

// A download cut short: the prefix loads, and the compressed cause is a
// kTruncated diagnostic.
TEST(LoadTest, TruncatedGzipLoadsThePrefixWithADiagnostic) {
  const std::string gz = Gzip(ChromeJson(20000));
  auto r = LoadBytes(std::string_view(gz).substr(0, gz.size() * 6 / 10), "cut.json.gz");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_GT(r->slices().size(), 1000u);
  EXPECT_LT(r->slices().size(), 20000u);
  const auto& truncated = r->diagnostics().entry(DiagCode::kTruncated);
  ASSERT_GE(truncated.count, 1u);
  bool quoted = false;
  for (const auto& i : truncated.instances) quoted |= i.detail.find("gzip stream ends inside a member") != std::string::npos;
  EXPECT_TRUE(quoted);
}

TEST(LoadTest, RealXSpaceFileDispatchesToTheXSpaceLoader) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = testing::SharedTracePath("tracelens/jax08_gemm_mi300.xplane.pb");
  auto r = LoadFile(path);
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->info().format, "xplane");
  EXPECT_EQ(r->info().source_path, path);
  EXPECT_EQ(r->info().file_bytes, 110057u);
  EXPECT_EQ(r->info().input_bytes, 110057u);
  EXPECT_EQ(r->info().compression, "");
}

TEST(LoadTest, RealPerfettoFileDispatchesToThePerfettoLoader) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto r = LoadFile(testing::SharedTracePath("perfetto/scrolling_with_blocked_nonblocked_frames.pftrace"));
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_EQ(r->info().format, "perfetto");
  EXPECT_EQ(r->info().input_bytes, 2581012u);
}

TEST(LoadTest, RealCorruptXSpaceIsAProtobufError) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = testing::SharedTracePath("corrupt/tpu_inference_2.utf8-mangled.xplane.pb");
  auto r = LoadFile(path);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(r.error().path, path);
  EXPECT_NE(r.error().byte_offset, LoadError::kNoOffset);
}

}  // namespace
}  // namespace stepline::loaders
