// Every shared .xplane.pb loads with the facts a second implementation found
// in the raw bytes: tests/data/xspace_facts.py (a hand-written wire decoder,
// no protobuf library) printed the numbers asserted here. Re-run it with
//   python3 tests/data/xspace_facts.py ../shared/traces/<file>
#include <gtest/gtest.h>

#include <libdeflate.h>
#include <zstd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "loaders/load.h"
#include "tests/loaders/xspace_test_builder.h"
#include "tests/support/test_traces.h"
#include "tests/support/trace_facts.h"

namespace stepline::testing {
namespace {

struct XSpaceFacts {
  const char* file;
  uint64_t host_threads;
  uint64_t streams_with_events;
  std::vector<DeviceKernels> kernels;  // devices with kernels only
  uint64_t h2d, d2h, d2d;
  uint64_t launch_links;
};

const XSpaceFacts kFacts[] = {
    {"xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb", 22, 9,
     {{4, 665, 14825385}, {6, 665, 14865363}}, 19 + 82 + 101, 24, 0, 1556},
    {"tracelens/jax08_conv_mi300.xplane.pb", 32, 11,
     {{0, 60, 4000165}, {1, 25, 3345845}, {2, 25, 3524285}, {3, 25, 3403364},
      {4, 25, 3493365}, {5, 25, 3464884}, {6, 25, 3403004}, {7, 25, 3502165}},
     0, 0, 0, 235},
    {"tracelens/jax08_gemm_mi300.xplane.pb", 5, 2, {{0, 54, 3475484}}, 0, 0, 0, 54},
    {"tracelens/jax_conv_minimal_legacy_mi300.xplane.pb", 17, 5, {{7, 25, 3586493}}, 0, 0, 53, 78},
};

Trace LoadShared(const std::string& relative) {
  auto result = loaders::LoadFile(SharedTracePath(relative));
  EXPECT_TRUE(result.ok()) << relative << ": " << (result.ok() ? "" : result.error().ToString());
  return std::move(result).value();
}

uint64_t CountXSpaceTracks(const Trace& t, TrackKind kind, std::string_view process_name = {}) {
  uint64_t n = 0;
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    const TrackId id = TrackId::FromIndex(i);
    if (t.tracks().kind(id) != kind) continue;
    if (!process_name.empty() && t.str(t.processes().name(t.tracks().process(id))) != process_name) continue;
    ++n;
  }
  return n;
}

class XSpaceRealTrace : public ::testing::TestWithParam<XSpaceFacts> {};

TEST_P(XSpaceRealTrace, MatchesIndependentlyCountedFacts) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const XSpaceFacts& want = GetParam();
  const Trace t = LoadShared(want.file);
  EXPECT_EQ(t.CheckInvariants(), "");
  EXPECT_EQ(t.info().format, "xplane");
  const ModelFacts got = CountModelFacts(t);
  EXPECT_EQ(got.kernels_per_device, want.kernels) << FormatKernelsPerDevice(got.kernels_per_device);
  EXPECT_EQ(got.memcpy_h2d, want.h2d);
  EXPECT_EQ(got.memcpy_d2h, want.d2h);
  EXPECT_EQ(got.memcpy_d2d, want.d2d);
  EXPECT_EQ(got.memsets, 0u);
  EXPECT_EQ(got.gpu_stream_tracks, want.streams_with_events);
  EXPECT_EQ(CountXSpaceTracks(t, TrackKind::kHostThread, "/host:CPU"), want.host_threads);
  EXPECT_EQ(got.launch_flows, want.launch_links);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kProducerWarning), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shared, XSpaceRealTrace, ::testing::ValuesIn(kFacts));

// The TensorFlow trace has "Steps" lines on GPU:4 and GPU:6, one event each:
// group "0" (step_name "0"), at different times on the two replicas.
TEST(XSpaceRealTraces, TensorFlowStepsLines) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadShared("xprof/GPU-multi-worker_34.83.195.179_6003.xplane.pb");
  std::set<std::pair<TimeNs, std::string>> steps;
  for (int32_t device : {4, 6}) {
    const TrackId track = FindTrack(t, "Steps", device);
    ASSERT_FALSE(track.is_none()) << device;
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuDerived);
    for (SliceId s : TrackSlices(t, track)) steps.emplace(t.slices().start_ns()[s.index()], t.str(t.slices().name()[s.index()]));
  }
  EXPECT_EQ(steps, (std::set<std::pair<TimeNs, std::string>>{{1921299828, "0"}, {2568855601, "0"}}));
  EXPECT_EQ(CountXSpaceTracks(t, TrackKind::kGpuDerived), 6u);  // Steps, TensorFlow Ops, TensorFlow Name Scope x 2 GPUs
}

TEST(XSpaceRealTraces, JaxTaskEnvironmentSetsTheWallClock) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadShared("tracelens/jax_conv_minimal_legacy_mi300.xplane.pb");
  EXPECT_EQ(t.info().wall_clock_origin_ns, 1757516928109201518);  // Task Environment profile_start_time
}

// .xplane.pb.gz and .xplane.pb.zst: the content is sniffed after
// decompression, so both give the model of the plain file.
TEST(XSpaceRealTraces, GzipAndZstdFilesLoadTheSame) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path = SharedTracePath("tracelens/jax08_gemm_mi300.xplane.pb");
  std::ifstream in(path, std::ios::binary);
  std::stringstream raw;
  raw << in.rdbuf();
  const std::string plain = raw.str();
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string gz(libdeflate_gzip_compress_bound(c, plain.size()), '\0');
  gz.resize(libdeflate_gzip_compress(c, plain.data(), plain.size(), gz.data(), gz.size()));
  libdeflate_free_compressor(c);
  std::string zst(ZSTD_compressBound(plain.size()), '\0');
  const size_t zst_size = ZSTD_compress(zst.data(), zst.size(), plain.data(), plain.size(), 3);
  ASSERT_FALSE(ZSTD_isError(zst_size));
  zst.resize(zst_size);
  auto a = loaders::LoadBytes(plain, "gemm.xplane.pb");
  ASSERT_TRUE(a.ok());
  for (const auto& [bytes, name, compression] : {std::tuple{gz, "gemm.xplane.pb.gz", "gzip"},
                                                  std::tuple{zst, "gemm.xplane.pb.zst", "zstd"}}) {
    auto b = loaders::LoadBytes(bytes, name);
    ASSERT_TRUE(b.ok()) << b.error().ToString();
    EXPECT_EQ(b->info().format, "xplane");
    EXPECT_EQ(b->info().compression, compression);
    EXPECT_EQ(b->slices().size(), a->slices().size());
    EXPECT_EQ(b->flows().size(), a->flows().size());
    EXPECT_EQ(CountModelFacts(*b).kernels_per_device, CountModelFacts(*a).kernels_per_device);
  }
}

// The committed xprof test file whose invalid bytes were replaced by U+FFFD:
// its very first length prefix (bytes 1..7: EF BF BD EF BF BD 06) now claims
// 28501368332271 bytes in a 1365940-byte file.
TEST(XSpaceRealTraces, Utf8MangledFileIsACleanErrorWithOffset) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  auto result = loaders::LoadFile(SharedTracePath("corrupt/tpu_inference_2.utf8-mangled.xplane.pb"));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, loaders::LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(result.error().byte_offset, 1u);
  EXPECT_NE(result.error().message.find("28501368332271"), std::string::npos) << result.error().message;
}

}  // namespace
}  // namespace stepline::testing
