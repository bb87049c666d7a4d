// Chrome JSON loader on the real traces of ../shared/traces: every JSON trace
// of MANIFEST.tsv loads, plus spot facts counted independently with python3's
// json/decimal modules over the raw files (the values are quoted below; the
// complete per-trace facts are real_chrome_traces_test.cpp's job).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "tests/support/file_bytes.h"
#include "tests/support/test_traces.h"

namespace stepline::loaders {
namespace {

Trace MustLoad(const std::string& relative, int threads = 0) {
  LoadOptions options;
  options.threads = threads;
  auto trace = LoadFile(::stepline::testing::SharedTracePath(relative), options);
  EXPECT_TRUE(trace.ok()) << relative << ": " << (trace.ok() ? "" : trace.error().ToString());
  if (!trace.ok()) return Trace();
  EXPECT_EQ(trace->CheckInvariants(), "") << relative;
  return std::move(trace).value();
}

std::vector<std::string> ManifestJsonTraces() {
  std::ifstream in(::stepline::testing::SharedTracePath("MANIFEST.tsv"));
  std::vector<std::string> paths;
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');) cols.push_back(col);
    if (cols.size() > 6 && (cols[6] == "chrome-json" || cols[6] == "kineto-json")) paths.push_back(cols[0]);
  }
  return paths;
}

TEST(ChromeJsonRealTracesTest, EveryJsonTraceOfTheManifestLoads) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::vector<std::string> paths = ManifestJsonTraces();
  EXPECT_GE(paths.size(), 30u);
  for (const std::string& path : paths) {
    const Trace t = MustLoad(path);
    EXPECT_EQ(t.info().format, "chrome-json") << path;
    EXPECT_GT(t.slices().size() + t.instants().size(), 0u) << path;
    EXPECT_EQ(t.diagnostics().count(DiagCode::kTruncated), 0u) << path;
  }
}

uint64_t CountKind(const Trace& t, GpuKind kind, int64_t* total_ns = nullptr) {
  uint64_t n = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.slices().gpu_kind()[i] != kind) continue;
    ++n;
    if (total_ns) *total_ns += t.slices().dur_ns()[i];
  }
  return n;
}

TEST(ChromeJsonRealTracesTest, LargestKinetoTraceSpotFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  // python3: 123379 X, 28012 i; 19370 cat=kernel of which 2020 match /nccl/i,
  // sum(dur) = 977859000 ns; 2040 "Memcpy DtoD"; activity on (pid 1, tid 7|14).
  const Trace t = MustLoad("hta/df_index_resolver_df_index_resolver.json.gz");
  EXPECT_EQ(t.slices().size(), 123379u);
  EXPECT_EQ(t.instants().size(), 28012u);
  int64_t kernel_ns = 0;
  const uint64_t kernels = CountKind(t, GpuKind::kKernel, &kernel_ns);
  const uint64_t collectives = CountKind(t, GpuKind::kCollective, &kernel_ns);
  EXPECT_EQ(kernels + collectives, 19370u);
  EXPECT_EQ(collectives, 2020u);
  EXPECT_EQ(kernel_ns, 977859000);
  EXPECT_EQ(CountKind(t, GpuKind::kMemcpyD2D), 2040u);
  std::vector<int64_t> activity_streams;
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId track = TrackId::FromIndex(i);
    const TrackTable::Ranges& r = t.tracks().ranges(track);
    bool active = false;
    for (uint32_t s = r.slice_begin; s < r.slice_end && !active; ++s)
      active = t.slices().gpu_kind()[s] != GpuKind::kNone;
    if (!active) continue;
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuStream);
    EXPECT_EQ(t.tracks().device_id(track), 1);
    activity_streams.push_back(t.tracks().tid(track));
  }
  EXPECT_EQ(activity_streams, (std::vector<int64_t>{7, 14}));
}

TEST(ChromeJsonRealTracesTest, NanosecondKinetoTimesAndBaseTime) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  // Raw text: "ts": 1419116104994.671, "dur": 1211182.252 for the host
  // ProfilerStep#6 (pid 21587); "baseTimeNanoseconds": 1751410836000000000.
  const Trace t = MustLoad("tracelens/h100_google_owlv2-large-patch14-ensemble.json.gz");
  EXPECT_EQ(t.info().wall_clock_origin_ns, 1751410836000000000);
  bool found = false;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) != "ProfilerStep#6") continue;
    const TrackId track = t.slices().track()[i];
    if (t.tracks().kind(track) != TrackKind::kHostThread) continue;
    found = true;
    EXPECT_EQ(t.slices().start_ns()[i], 1419116104994671);
    EXPECT_EQ(t.slices().dur_ns()[i], 1211182252);
  }
  EXPECT_TRUE(found);
}

TEST(ChromeJsonRealTracesTest, EarlyKinetoStringStreams) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  // python3: 9564 cat=Kernel events, all on pid 0, tid "stream 7".
  const Trace t = MustLoad("kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz");
  uint64_t on_stream_7 = 0;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (!IsKernelLike(t.slices().gpu_kind()[i])) continue;
    const TrackId track = t.slices().track()[i];
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuStream);
    if (t.tracks().tid(track) == 7 && t.tracks().device_id(track) == 0) ++on_stream_7;
  }
  EXPECT_EQ(on_stream_7, 9564u);
}

TEST(ChromeJsonRealTracesTest, FuchsiaCountersAndLargeMetadata) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  // python3: 671 C events holding 1612 numeric args; "systemTraceEvents" is a
  // 6.3 MB object, kept as a short placeholder.
  const Trace t = MustLoad("catapult/fuchsia_trace.json.gz");
  EXPECT_EQ(t.counters().size(), 1612u);
  ArgValue v;
  ASSERT_TRUE(t.args().Find(t.info().metadata, t.strings().Find("systemTraceEvents"), &v));
  EXPECT_NE(t.str(v.as_string()).find("bytes of JSON not kept"), std::string::npos);
}

TEST(ChromeJsonRealTracesTest, CutCompressedFileLoadsItsPrefix) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string gz = ::stepline::testing::ReadFileBytes(::stepline::testing::SharedTracePath("hta/nccl_parser_config_nccl_data.json.gz"));
  ASSERT_GT(gz.size(), 100000u);
  auto r = LoadBytes(std::string_view(gz).substr(0, gz.size() / 2), "cut.json.gz");
  ASSERT_TRUE(r.ok()) << r.error().ToString();
  EXPECT_GT(r->slices().size(), 1000u);
  EXPECT_EQ(r->diagnostics().count(DiagCode::kTruncated), 1u);
  EXPECT_EQ(r->diagnostics().entry(DiagCode::kTruncated).first_offset, r->info().input_bytes);
}

}  // namespace
}  // namespace stepline::loaders
