// The Chrome JSON writer: exact text (escaping, microseconds with three
// decimals, metadata), a trace with every track kind read back by the JSON
// loader, and the file side (gzip/zstd by extension, no clobbering, no
// temporary files left behind).
#include "export/chrome_json_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "loaders/load.h"
#include "loaders/trace_builder.h"

namespace stepline::exports {
namespace {

namespace fs = std::filesystem;

SliceId Slice(loaders::TraceBuilder& b, TrackId t, TimeNs start, DurNs dur, std::string_view name, std::string_view cat = "",
              ArgSetId args = ArgSetId(), GpuKind kind = GpuKind::kNone) {
  return b.AddSlice({t, start, dur, b.Intern(name), cat.empty() ? StringId() : b.Intern(cat), args, kind});
}

// A small trace with every track kind, nested slices, all arg types and both
// flow kinds.
Trace EveryKindTrace() {
  loaders::TraceBuilder b("test");
  b.SetProcessName(10, "host proc", 0);
  b.SetProcessSortIndex(10, 3);
  const TrackId main = b.ThreadTrack(10, 11);
  b.SetThreadName(10, 11, "main", 0);
  b.SetThreadSortIndex(10, 11, -2);
  const Arg args[] = {{b.Intern("int"), ArgValue::Int(-5)},
                      {b.Intern("double"), ArgValue::Double(0.25)},
                      {b.Intern("bool"), ArgValue::Bool(true)},
                      {b.Intern("str"), ArgValue::String(b.Intern("a \"quoted\"\nline"))},
                      {b.Intern("json"), ArgValue::Json(b.Intern("[1,{\"k\":null}]"))}};
  const SliceId outer = Slice(b, main, 1'000, 10'000, "outer", "cpu_op", b.AddArgs(args));
  Slice(b, main, 1'000, 4'000, "first child");  // starts with its parent
  const SliceId launch = Slice(b, main, 6'000, 2'000, "cudaLaunchKernel", "cuda_runtime");
  b.AddInstant({main, 2'500, b.Intern("thread instant"), StringId(), ArgSetId()});

  b.SetProcessName(0, "GPU 0", 0);
  b.SetProcessDevice(0, 0);
  const TrackId stream = b.ThreadTrack(0, 7);
  b.SetThreadName(0, 7, "stream 7", 0);
  b.SetTrackKind(stream, TrackKind::kGpuStream, 0);
  const SliceId kernel = Slice(b, stream, 7'000, 3'000, "gemm", "kernel", ArgSetId(), GpuKind::kKernel);
  Slice(b, stream, 11'000, 500, "Memcpy DtoH (Device -> Pageable)", "gpu_memcpy", ArgSetId(), GpuKind::kMemcpyD2H);
  b.AddFlow(
      {FlowEndpoint::OfSlice(launch), FlowEndpoint::OfSlice(kernel), FlowKind::kLaunch, StringId(), StringId(), 42, 0});
  // A generic flow from the outer slice: its anchor must avoid "first child".
  b.AddFlow({FlowEndpoint::OfSlice(outer), FlowEndpoint::OfSlice(kernel), FlowKind::kGeneric, b.Intern("dep"),
             b.Intern("deps"), 0, 0});

  const TrackId async = b.AsyncTrack(10, b.Intern("net"), 99, b.Intern("request"));
  Slice(b, async, 2'000, 8'000, "request", "net");
  Slice(b, async, 3'000, 2'000, "dns", "net");
  b.AddInstant({async, 4'000, b.Intern("retry"), b.Intern("net"), ArgSetId()});
  const TrackId counter = b.CounterTrack(10, "memory", b.Intern("mem"));
  b.AddCounter(counter, 1'000, 1.5);
  b.AddCounter(counter, 9'000, 3e9);
  b.AddInstant({b.MarkerTrack(10), 5'000, b.Intern("process mark"), StringId(), ArgSetId()});
  b.AddInstant({b.MarkerTrack(loaders::kGlobalPid), 5'500, b.Intern("global mark"), StringId(), ArgSetId()});
  return b.Finish();
}

SliceId FindSlice(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId::FromIndex(i);
  }
  return SliceId::None();
}

TEST(ChromeJsonWriter, WritesExactMicrosecondsAndEscapes) {
  loaders::TraceBuilder b("test");
  const TrackId t = b.ThreadTrack(1, 2);
  Slice(b, t, 1'234'567, 1, "quote\" backslash\\ tab\t nl\n ctl\x01 bad\xff");
  Slice(b, t, -1'500, 999, "negative");
  const std::string json = exports::ChromeJsonText(b.Finish());
  EXPECT_NE(json.find("\"ts\":1234.567,\"dur\":0.001"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ts\":-1.500,\"dur\":0.999"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("name":"quote\" backslash\\ tab\t nl\n ctl\u0001 bad)"
                      "\xEF\xBF\xBD\""),
            std::string::npos)
      << json;
  EXPECT_EQ(json.rfind("{\"traceEvents\":[\n", 0), 0u);
  EXPECT_NE(json.find("],\"displayTimeUnit\":\"ns\"}"), std::string::npos);
}

TEST(ChromeJsonWriter, WritesMetadataAndKinetoFlows) {
  const std::string json = exports::ChromeJsonText(EveryKindTrace());
  EXPECT_NE(json.find(R"({"ph":"M","name":"process_name","pid":10,"args":{"name":"host proc"}})"), std::string::npos);
  EXPECT_NE(json.find(R"({"ph":"M","name":"process_sort_index","pid":10,"args":{"sort_index":3}})"), std::string::npos);
  EXPECT_NE(json.find(R"({"ph":"M","name":"thread_name","pid":10,"tid":11,"args":{"name":"main"}})"),
            std::string::npos);
  EXPECT_NE(json.find(R"({"ph":"s","pid":10,"tid":11,"ts":6.000,"id":42,"cat":"ac2g","name":"ac2g"})"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"ph":"f","pid":0,"tid":7,"ts":7.000,"id":42,"cat":"ac2g","name":"ac2g","bp":"e"})"),
            std::string::npos);
  // The generic flow leaves "outer" where its first child has ended (5 us).
  EXPECT_NE(json.find(R"("ts":5.000,"id":43,"cat":"deps","name":"dep"})"), std::string::npos) << json;
  EXPECT_NE(
      json.find(R"("args":{"int":-5,"double":0.25,"bool":true,"str":"a \"quoted\"\nline","json":[1,{"k":null}]})"),
      std::string::npos);
}

TEST(ChromeJsonWriter, EveryTrackKindLoadsBack) {
  const Trace original = EveryKindTrace();
  auto loaded = loaders::LoadBytes(exports::ChromeJsonText(original), "every_kind.json");
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  const Trace& t = loaded.value();
  EXPECT_TRUE(t.diagnostics().empty());
  ASSERT_EQ(t.slices().size(), original.slices().size());
  ASSERT_EQ(t.tracks().size(), original.tracks().size());
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId id = TrackId::FromIndex(i);
    SCOPED_TRACE(std::string(original.str(original.tracks().name(id))));
    EXPECT_EQ(t.tracks().kind(id), original.tracks().kind(id));
    EXPECT_EQ(t.str(t.tracks().name(id)), original.str(original.tracks().name(id)));
    EXPECT_EQ(t.tracks().sort_index(id), original.tracks().sort_index(id));
    EXPECT_EQ(t.tracks().device_id(id), original.tracks().device_id(id));
    EXPECT_EQ(t.tracks().ranges(id).slice_end - t.tracks().ranges(id).slice_begin,
              original.tracks().ranges(id).slice_end - original.tracks().ranges(id).slice_begin);
  }
  for (size_t i = 0; i < t.slices().size(); ++i) {
    EXPECT_EQ(t.slices().start_ns()[i], original.slices().start_ns()[i]);
    EXPECT_EQ(t.slices().dur_ns()[i], original.slices().dur_ns()[i]);
    EXPECT_EQ(t.str(t.slices().name()[i]), original.str(original.slices().name()[i]));
    EXPECT_EQ(t.slices().gpu_kind()[i], original.slices().gpu_kind()[i]);
    EXPECT_EQ(t.slices().depth()[i], original.slices().depth()[i]);
  }
  EXPECT_EQ(t.instants().size(), original.instants().size());
  ASSERT_EQ(t.counters().size(), 2u);
  EXPECT_EQ(t.counters().value()[1], 3e9);
  // Both flows bind to the same slices as before.
  ASSERT_EQ(t.flows().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(t.flows().from()[i], original.flows().from()[i]);
    EXPECT_EQ(t.flows().to()[i], original.flows().to()[i]);
    EXPECT_EQ(t.flows().kind()[i], original.flows().kind()[i]);
  }
  const SliceId outer = FindSlice(t, "outer");
  ArgValue v;
  ASSERT_TRUE(t.args().Find(t.slices().arg_set()[outer.index()], t.strings().Find("str"), &v));
  EXPECT_EQ(t.str(v.as_string()), "a \"quoted\"\nline");
  ASSERT_TRUE(t.args().Find(t.slices().arg_set()[outer.index()], t.strings().Find("json"), &v));
  EXPECT_EQ(t.str(v.as_string()), "[1,{\"k\":null}]");
}

// --- Files ---------------------------------------------------------------------------

class ChromeJsonWriterFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("stepline_writer_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  size_t FilesInDir() const { return static_cast<size_t>(std::distance(fs::directory_iterator(dir_), {})); }
  static std::string Head(const std::string& path, size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string s(n, '\0');
    in.read(s.data(), static_cast<std::streamsize>(n));
    return s;
  }
  fs::path dir_;
};

TEST_F(ChromeJsonWriterFileTest, CompressionFollowsTheExtension) {
  EXPECT_EQ(exports::CompressionForPath("a.json"), "");
  EXPECT_EQ(exports::CompressionForPath("a.json.GZ"), "gzip");
  EXPECT_EQ(exports::CompressionForPath("a.json.zst"), "zstd");
  EXPECT_EQ(exports::CompressionForPath("a.zstd"), "zstd");
  const Trace trace = EveryKindTrace();
  const std::string text = exports::ChromeJsonText(trace);
  for (const std::string name : {"t.json", "t.json.gz", "t.json.zst"}) {
    SCOPED_TRACE(name);
    auto stats = exports::WriteChromeJsonFile(trace, Path(name));
    ASSERT_TRUE(stats.ok()) << stats.error();
    EXPECT_EQ(stats.value().json_bytes, text.size());
    EXPECT_EQ(stats.value().file_bytes, fs::file_size(Path(name)));
    EXPECT_GT(stats.value().events, 20u);
    const std::string head = Head(Path(name), 4);
    EXPECT_EQ(stats.value().compression, exports::CompressionForPath(name));
    const std::string magic = stats.value().compression == "gzip"   ? std::string("\x1f\x8b\x08", 3)
                              : stats.value().compression == "zstd" ? std::string("\x28\xb5\x2f\xfd")
                                                                    : text.substr(0, 4);
    EXPECT_EQ(head.substr(0, magic.size()), magic);
    auto loaded = loaders::LoadFile(Path(name));
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    EXPECT_EQ(loaded.value().info().input_bytes, text.size());
    EXPECT_EQ(loaded.value().slices().size(), trace.slices().size());
    EXPECT_EQ(loaded.value().flows().size(), trace.flows().size());
  }
  EXPECT_EQ(FilesInDir(), 3u);  // no temporary files left behind
}

TEST_F(ChromeJsonWriterFileTest, NeverOverwritesUnlessAsked) {
  const std::string path = Path("exists.json");
  std::ofstream(path) << "keep me";
  const Trace trace = EveryKindTrace();
  auto refused = exports::WriteChromeJsonFile(trace, path);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("already exists"), std::string::npos) << refused.error();
  EXPECT_EQ(Head(path, 7), "keep me");
  exports::ChromeJsonWriteOptions force;
  force.overwrite = true;
  ASSERT_TRUE(exports::WriteChromeJsonFile(trace, path, force).ok());
  EXPECT_EQ(Head(path, 15), "{\"traceEvents\":");
  EXPECT_EQ(FilesInDir(), 1u);
}

TEST_F(ChromeJsonWriterFileTest, ReportsUnwritablePaths) {
  auto r = exports::WriteChromeJsonFile(EveryKindTrace(), Path("no/such/dir/t.json"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("no/such/dir/t.json"), std::string::npos) << r.error();
  EXPECT_EQ(FilesInDir(), 0u);
}

}  // namespace
}  // namespace stepline::exports
