// XSpace loader conventions, one test each, on tiny XSpaces built with the
// generated proto classes (see xspace_test_builder.h).
//
// Index: stats and args (ref_value, display_name, metadata-stat order,
// step_name, bytes, compressed strings, keep_args) -> GPU classification and
// derived lines -> counters -> correlation flows -> aggregated events -> time
// (ps -> ns rounding, epoch timestamps, Task Environment) -> producer messages
// -> host steps -> host lines -> malformed input, UTF-8, threads, empty input.
#include <gtest/gtest.h>

#include <libdeflate.h>

#include "loaders/xspace/xspace_loader.h"
#include "tests/loaders/xspace_test_builder.h"

namespace stepline::testing {
namespace {

using loaders::LoadErrorCode;
using loaders::LoadOptions;

Trace Load(const xs::XSpace& space, const LoadOptions& options = {}) {
  auto result = loaders::LoadXSpaceBytes(Serialize(space), "test.xplane.pb", options);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().ToString());
  return std::move(result).value();
}

// A GPU plane with one stream line and one kernel metadata.
struct GpuFixture {
  xs::XSpace space;
  PlaneBuilder gpu{&space, 3, "/device:GPU:3"};
  xs::XLine* stream = gpu.Line(14, "Stream #14(Compute)", 1000);
};

TEST(XSpaceLoader, RefValueResolvesToStatMetadataName) {
  GpuFixture f;
  const int64_t details = f.gpu.StatMd("kernel_details");
  const int64_t interned = f.gpu.StatMd("regs:32 grid:1,1,1 block:128,1,1");
  const int64_t kernel = f.gpu.EventMd("my_kernel");
  auto* e = PlaneBuilder::Event(f.stream, kernel, 0, 5000);
  PlaneBuilder::Stat(e->mutable_stats(), details)->set_ref_value(static_cast<uint64_t>(interned));
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]),
            std::vector<std::string>{"kernel_details=regs:32 grid:1,1,1 block:128,1,1"});
}

TEST(XSpaceLoader, DisplayNameIsShownAndNameKeptAsLongName) {
  GpuFixture f;
  const int64_t md = f.gpu.EventMd("void ns::Kernel<float>(float*)", "Kernel");
  PlaneBuilder::Event(f.stream, md, 0, 1000);
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "Kernel");
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]), std::vector<std::string>{"long_name=void ns::Kernel<float>(float*)"});
}

TEST(XSpaceLoader, MetadataStatsComeBeforeEventStats) {
  GpuFixture f;
  const int64_t a = f.gpu.StatMd("from_metadata");
  const int64_t b = f.gpu.StatMd("from_event");
  const int64_t md = f.gpu.EventMd("k");
  PlaneBuilder::Stat(f.gpu.MutableEventMd(md)->mutable_stats(), a)->set_int64_value(1);
  auto* e = PlaneBuilder::Event(f.stream, md, 0, 1000);
  PlaneBuilder::Stat(e->mutable_stats(), b)->set_uint64_value(2);
  PlaneBuilder::Stat(e->mutable_stats(), a)->set_double_value(0.5);
  const Trace t = Load(f.space);
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]),
            (std::vector<std::string>{"from_metadata=1", "from_event=2", "from_metadata=0.500000"}));
}

TEST(XSpaceLoader, StepNameStatReplacesTheShownName) {
  xs::XSpace space;
  PlaneBuilder host(&space, 0, "/host:CPU");
  const int64_t step_name = host.StatMd("step_name");
  const int64_t md = host.EventMd("ExecutorState::Process");
  auto* e = PlaneBuilder::Event(host.Line(7, "tf_Compute/7"), md, 0, 3000);
  PlaneBuilder::Stat(e->mutable_stats(), step_name)->set_str_value("train 12");
  const Trace t = Load(space);
  const auto slices = TrackSlices(t, FindTrack(t, "tf_Compute/7"));
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[slices[0].index()]), "train 12");
  // ... which also makes it a host step marker ("train" prefix).
  EXPECT_EQ(TrackSlices(t, FindTrack(t, "Steps")).size(), 1u);
}

TEST(XSpaceLoader, BytesValueBecomesASizePlaceholder) {
  GpuFixture f;
  const int64_t blob = f.gpu.StatMd("Hlo Proto");
  const int64_t md = f.gpu.EventMd("k");
  auto* e = PlaneBuilder::Event(f.stream, md, 0, 1000);
  PlaneBuilder::Stat(e->mutable_stats(), blob)->set_bytes_value(std::string(1234, '\x01'));
  const Trace t = Load(f.space);
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]), std::vector<std::string>{"Hlo Proto=<1234 bytes>"});
}

TEST(XSpaceLoader, CompressedStringIsInflated) {
  GpuFixture f;
  const int64_t stat = f.gpu.StatMd("hlo_text");
  const int64_t md = f.gpu.EventMd("k");
  const std::string text = "ROOT %fusion = f32[8] fusion(%p0)";
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string gz(256, '\0');
  gz.resize(libdeflate_gzip_compress(c, text.data(), text.size(), gz.data(), gz.size()));
  libdeflate_free_compressor(c);
  ASSERT_GT(gz.size(), 0u);
  auto* e = PlaneBuilder::Event(f.stream, md, 0, 1000);
  PlaneBuilder::Stat(e->mutable_stats(), stat)->set_compressed_str_value(gz);
  const Trace t = Load(f.space);
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]), std::vector<std::string>{"hlo_text=" + text});
}

TEST(XSpaceLoader, KeepArgsFalseStoresNoArgsButStillClassifies) {
  GpuFixture f;
  const int64_t details = f.gpu.StatMd("memcpy_details");
  const int64_t md = f.gpu.EventMd("MemcpyH2D");
  auto* e = PlaneBuilder::Event(f.stream, md, 0, 1000);
  PlaneBuilder::Stat(e->mutable_stats(), details)->set_str_value("kind_src:device kind_dst:host size:8");
  LoadOptions options;
  options.keep_args = false;
  const Trace t = Load(f.space, options);
  EXPECT_EQ(t.args().size(), 0u);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_TRUE(t.slices().arg_set()[0].is_none());
  EXPECT_EQ(t.slices().gpu_kind()[0], GpuKind::kMemcpyD2H);  // details win over the name
}

TEST(XSpaceLoader, MemcpyMemsetAndKernelClassification) {
  GpuFixture f;
  const int64_t details = f.gpu.StatMd("memcpy_details");
  const int64_t memset_details = f.gpu.StatMd("Memset_details");
  struct Case {
    std::string name, details;
    bool memset;
    GpuKind want;
  } cases[] = {
      {"MemcpyH2D", "", false, GpuKind::kMemcpyH2D},
      {"MemcpyD2H", "size:8 dest:0 async:1", false, GpuKind::kMemcpyD2H},
      {"CopyDeviceToDevice", "kind:Unknown size:655360", false, GpuKind::kMemcpyD2D},
      {"MemcpyOther", "kind_src:pinned kind_dst:device size:4", false, GpuKind::kMemcpyH2D},
      {"MemcpyP2P", "", false, GpuKind::kMemcpyOther},
      {"Memset 2", "", true, GpuKind::kMemset},
      {"ncclAllReduceRingLLKernel", "", false, GpuKind::kCollective},
      {"volta_sgemm_128x64_nn", "", false, GpuKind::kKernel},
      {"MemoryResidency 1", "", false, GpuKind::kNone},
  };
  int64_t offset_ps = 0;
  for (const Case& c : cases) {
    auto* e = PlaneBuilder::Event(f.stream, f.gpu.EventMd(c.name), offset_ps += 10'000, 1000);
    if (!c.details.empty()) PlaneBuilder::Stat(e->mutable_stats(), details)->set_str_value(c.details);
    if (c.memset) PlaneBuilder::Stat(e->mutable_stats(), memset_details)->set_str_value("kind:1 num_bytes:64");
  }
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), std::size(cases));
  for (size_t i = 0; i < std::size(cases); ++i) {  // one track, sorted by start = input order
    EXPECT_EQ(t.str(t.slices().name()[i]), cases[i].name);
    EXPECT_EQ(t.slices().gpu_kind()[i], cases[i].want) << cases[i].name;
  }
}

TEST(XSpaceLoader, DerivedLinesAreDeviceTracksNeverStreams) {
  GpuFixture f;
  const int64_t k = f.gpu.EventMd("kernel");
  const int64_t op = f.gpu.EventMd("MatMul");
  PlaneBuilder::Event(f.stream, k, 0, 1000);
  PlaneBuilder::Event(f.gpu.Line(-559038734, "TensorFlow Ops", 1000), op, 0, 1000);
  PlaneBuilder::Event(f.gpu.Line(-559038732, "XLA Ops - from #14", 1000), op, 0, 1000);
  PlaneBuilder::Event(f.gpu.Line(-559038737, "Steps", 1000), f.gpu.EventMd("0"), 0, 1000);
  const Trace t = Load(f.space);
  for (const char* name : {"TensorFlow Ops", "XLA Ops - from #14", "Steps"}) {
    const TrackId track = FindTrack(t, name);
    ASSERT_FALSE(track.is_none()) << name;
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuDerived) << name;
    EXPECT_EQ(t.tracks().device_id(track), 3) << name;
    EXPECT_EQ(t.slices().gpu_kind()[TrackSlices(t, track)[0].index()], GpuKind::kNone) << name;
  }
  const TrackId stream = FindTrack(t, "Stream #14(Compute)");
  EXPECT_EQ(t.tracks().kind(stream), TrackKind::kGpuStream);
  EXPECT_EQ(t.tracks().device_id(stream), 3);
  const ProcessId device = t.tracks().process(stream);
  EXPECT_EQ(t.processes().device_id(device), 3);
  EXPECT_EQ(t.str(t.processes().name(device)), "/device:GPU:3");
  // Streams first, then derived rows in XProf's order (Steps = 0xDEADBEEF first).
  EXPECT_LT(t.tracks().sort_index(stream), t.tracks().sort_index(FindTrack(t, "Steps")));
  EXPECT_LT(t.tracks().sort_index(FindTrack(t, "Steps")), t.tracks().sort_index(FindTrack(t, "TensorFlow Ops")));
}

// A TPU plane holds only XLA lines the runtime writes: each becomes a derived
// row of that device (pid 1 + N, device id N), none a stream, and its ops are
// not GPU kernels.
TEST(XSpaceLoader, TpuPlaneLinesAreDerivedRowsOfTheirDevice) {
  xs::XSpace space;
  PlaneBuilder tpu{&space, 2, "/device:TPU:1"};
  const int64_t module = tpu.EventMd("jit_train_step");
  const int64_t fusion = tpu.EventMd("fusion.42");
  PlaneBuilder::Event(tpu.Line(1, "XLA Modules", 1000), module, 0, 9000);
  xs::XLine* ops = tpu.Line(2, "XLA Ops", 1000);
  PlaneBuilder::Event(ops, fusion, 1000, 3000);
  PlaneBuilder::Event(ops, fusion, 5000, 2000);
  const Trace t = Load(space);
  EXPECT_EQ(t.CheckInvariants(), "");
  for (const char* name : {"XLA Modules", "XLA Ops"}) {
    const TrackId track = FindTrack(t, name);
    ASSERT_FALSE(track.is_none()) << name;
    EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuDerived) << name;
    EXPECT_EQ(t.tracks().device_id(track), 1) << name;
    EXPECT_EQ(t.str(t.processes().name(t.tracks().process(track))), "/device:TPU:1");
  }
  EXPECT_EQ(TrackSlices(t, FindTrack(t, "XLA Ops")).size(), 2u);
  // The XLA Ops events are the TPU's device ops (kernels here), the modules are not.
  for (SliceId s : TrackSlices(t, FindTrack(t, "XLA Ops"))) EXPECT_EQ(t.slices().gpu_kind()[s.index()], GpuKind::kKernel);
  for (SliceId s : TrackSlices(t, FindTrack(t, "XLA Modules"))) EXPECT_EQ(t.slices().gpu_kind()[s.index()], GpuKind::kNone);
  for (size_t i = 0; i < t.tracks().size(); ++i) {
    EXPECT_NE(t.tracks().kind(TrackId::FromIndex(i)), TrackKind::kGpuStream);
  }
}

TEST(XSpaceLoader, CountersLineBecomesOneCounterTrackPerName) {
  GpuFixture f;
  xs::XLine* counters = f.gpu.Line(INT64_MAX, "_counters_", 0);
  const int64_t value = f.gpu.StatMd("value");
  const int64_t clock = f.gpu.EventMd("sm_clock_mhz");
  const int64_t temp = f.gpu.EventMd("gpu_temp_c");
  PlaneBuilder::Stat(PlaneBuilder::Event(counters, clock, 1'000'000, 0)->mutable_stats(), value)->set_double_value(1410);
  PlaneBuilder::Stat(PlaneBuilder::Event(counters, clock, 2'000'000, 0)->mutable_stats(), value)->set_double_value(1380);
  PlaneBuilder::Stat(PlaneBuilder::Event(counters, temp, 1'000'000, 0)->mutable_stats(), value)->set_int64_value(61);
  const Trace t = Load(f.space);
  EXPECT_EQ(t.slices().size(), 0u);
  const TrackId clock_track = FindTrack(t, "sm_clock_mhz");
  const TrackId temp_track = FindTrack(t, "gpu_temp_c");
  ASSERT_FALSE(clock_track.is_none());
  ASSERT_FALSE(temp_track.is_none());
  EXPECT_EQ(t.tracks().kind(clock_track), TrackKind::kCounter);
  const auto& r = t.tracks().ranges(clock_track);
  ASSERT_EQ(r.counter_end - r.counter_begin, 2u);
  EXPECT_EQ(t.counters().ts_ns()[r.counter_begin], 1000);
  EXPECT_EQ(t.counters().value()[r.counter_begin], 1410.0);
  EXPECT_EQ(t.counters().value()[r.counter_begin + 1], 1380.0);
  EXPECT_EQ(t.counters().value()[t.tracks().ranges(temp_track).counter_begin], 61.0);
}

TEST(XSpaceLoader, CorrelationIdLinksHostLaunchToDeviceActivity) {
  GpuFixture f;
  const int64_t gpu_corr = f.gpu.StatMd("correlation_id");
  auto* kernel = PlaneBuilder::Event(f.stream, f.gpu.EventMd("kernel"), 50'000, 10'000);
  PlaneBuilder::Stat(kernel->mutable_stats(), gpu_corr)->set_uint64_value(77);
  auto* unmatched = PlaneBuilder::Event(f.stream, f.gpu.EventMd("kernel2"), 90'000, 10'000);
  PlaneBuilder::Stat(unmatched->mutable_stats(), gpu_corr)->set_uint64_value(78);
  PlaneBuilder host(&f.space, 0, "/host:CPU");
  const int64_t host_corr = host.StatMd("correlation_id");
  auto* launch = PlaneBuilder::Event(host.Line(42, "python"), host.EventMd("cudaLaunchKernel"), 1'000'000, 0);
  PlaneBuilder::Stat(launch->mutable_stats(), host_corr)->set_uint64_value(77);
  const Trace t = Load(f.space);
  ASSERT_EQ(t.flows().size(), 1u);
  EXPECT_EQ(t.flows().kind()[0], FlowKind::kLaunch);
  EXPECT_EQ(t.str(t.slices().name()[t.flows().from()[0].index()]), "cudaLaunchKernel");  // zero-length, still a slice
  EXPECT_EQ(t.str(t.slices().name()[t.flows().to()[0].index()]), "kernel");
  EXPECT_EQ(t.flows().flow_id()[0], 77u);
}

TEST(XSpaceLoader, AggregatedEventsAreSkippedAndCounted) {
  GpuFixture f;
  const int64_t md = f.gpu.EventMd("k");
  PlaneBuilder::Event(f.stream, md, 0, 1000);
  for (int i = 0; i < 3; ++i) {
    xs::XEvent* e = f.stream->add_events();
    e->set_metadata_id(md);
    e->set_num_occurrences(5);
    e->set_duration_ps(1000);
  }
  const Trace t = Load(f.space);
  EXPECT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnsupportedFeature), 3u);
}

TEST(XSpaceLoader, PicosecondsFloorBothEndsToNanoseconds) {
  GpuFixture f;  // line timestamp 1000 ns
  const int64_t md = f.gpu.EventMd("k");
  PlaneBuilder::Event(f.stream, md, 1'999, 2);      // [1001.999, 1002.001) ns -> [1001, 1002)
  PlaneBuilder::Event(f.stream, md, 10'500, 400);   // [1010.5, 1010.9) -> [1010, 1010), zero length
  PlaneBuilder::Event(f.stream, md, -2'500, 1'000); // [997.5, 998.5) -> [997, 998): floor, not truncation
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), 3u);  // sorted by start
  EXPECT_EQ(t.slices().start_ns()[0], 997);
  EXPECT_EQ(t.slices().dur_ns()[0], 1);
  EXPECT_EQ(t.slices().start_ns()[1], 1001);
  EXPECT_EQ(t.slices().dur_ns()[1], 1);
  EXPECT_EQ(t.slices().start_ns()[2], 1010);
  EXPECT_EQ(t.slices().dur_ns()[2], 0);
}

TEST(XSpaceLoader, EpochTimestampsDoNotOverflow) {
  GpuFixture f;
  f.stream->set_timestamp_ns(1'771'595'639'214'724'894);  // 2026 in ns: * 1000 overflows int64
  PlaneBuilder::Event(f.stream, f.gpu.EventMd("k"), 3'500, 1'000'000);
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.slices().start_ns()[0], 1'771'595'639'214'724'897);
  EXPECT_EQ(t.slices().dur_ns()[0], 1000);
}

TEST(XSpaceLoader, TaskEnvironmentGivesTheWallClockOrigin) {
  GpuFixture f;
  PlaneBuilder::Event(f.stream, f.gpu.EventMd("k"), 0, 1000);
  PlaneBuilder env(&f.space, 0, "Task Environment");
  const int64_t start = env.StatMd("profile_start_time");
  PlaneBuilder::Stat(env.plane()->mutable_stats(), start)->set_int64_value(1'757'516'928'109'201'518);
  const Trace t = Load(f.space);
  EXPECT_EQ(t.info().wall_clock_origin_ns, 1'757'516'928'109'201'518);
  EXPECT_EQ(t.info().display_origin_ns, 0);
  EXPECT_EQ(t.info().format, "xplane");
  ArgValue v;
  ASSERT_TRUE(t.args().Find(t.info().metadata, t.strings().Find("Task Environment/profile_start_time"), &v));
  EXPECT_EQ(v.as_int(), 1'757'516'928'109'201'518);
}

TEST(XSpaceLoader, ProducerErrorsAndWarningsAreDiagnostics) {
  GpuFixture f;
  PlaneBuilder::Event(f.stream, f.gpu.EventMd("k"), 0, 1000);
  f.space.add_errors("CUPTI error: 7");
  f.space.add_warnings("2 events dropped");
  f.space.add_warnings("buffer full");
  const Trace t = Load(f.space);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kProducerWarning), 3u);
}

TEST(XSpaceLoader, HostStepMarkersBecomeAStepsTrackWhenNoDeviceHasOne) {
  xs::XSpace space;
  PlaneBuilder host(&space, 0, "/host:CPU");
  const int64_t step_num = host.StatMd("step_num");
  xs::XLine* line = host.Line(9, "python");
  const int64_t train = host.EventMd("train");
  const int64_t inner = host.EventMd("train_step");  // nested marker: not a second step
  for (int i = 0; i < 3; ++i) {
    auto* e = PlaneBuilder::Event(line, train, i * 1'000'000, 900'000);
    PlaneBuilder::Stat(e->mutable_stats(), step_num)->set_int64_value(5 + i);
    PlaneBuilder::Event(line, inner, i * 1'000'000 + 1000, 800'000);
  }
  PlaneBuilder::Event(line, host.EventMd("train/apply_grads"), 5'000'000, 1000);  // has '/': not a marker
  const Trace t = Load(space);
  const TrackId steps = FindTrack(t, "Steps");
  ASSERT_FALSE(steps.is_none());
  EXPECT_EQ(t.tracks().kind(steps), TrackKind::kGpuDerived);
  const auto slices = TrackSlices(t, steps);
  ASSERT_EQ(slices.size(), 3u);
  EXPECT_EQ(t.str(t.slices().name()[slices[0].index()]), "train 5");
  EXPECT_EQ(t.str(t.slices().name()[slices[2].index()]), "train 7");
  EXPECT_EQ(t.slices().dur_ns()[slices[1].index()], 900);
}

TEST(XSpaceLoader, NoHostStepsTrackWhenADeviceHasASteps) {
  GpuFixture f;
  PlaneBuilder::Event(f.gpu.Line(-559038737, "Steps", 0), f.gpu.EventMd("0"), 0, 1000);
  PlaneBuilder host(&f.space, 0, "/host:CPU");
  PlaneBuilder::Event(host.Line(1, "main"), host.EventMd("train"), 0, 1000);
  const Trace t = Load(f.space);
  int steps_tracks = 0;
  for (size_t i = 0; i < t.tracks().size(); ++i) steps_tracks += t.str(t.tracks().name(TrackId::FromIndex(i))) == "Steps";
  EXPECT_EQ(steps_tracks, 1);
}

TEST(XSpaceLoader, HostLinesAreThreadsWithInstantsForZeroDuration) {
  xs::XSpace space;
  PlaneBuilder host(&space, 0, "/host:CPU");
  xs::XLine* a = host.Line(300, "tf_Compute/300");
  a->set_display_name("Compute 300");
  xs::XLine* b = host.Line(-12, "python");
  PlaneBuilder::Event(a, host.EventMd("Op"), 0, 5000);
  PlaneBuilder::Event(b, host.EventMd("MemoryAllocation"), 1000, 0);
  host.Line(5, "idle");  // no events: no track
  const Trace t = Load(space);
  const TrackId ta = FindTrack(t, "Compute 300");
  const TrackId tb = FindTrack(t, "python");
  ASSERT_FALSE(ta.is_none());
  ASSERT_FALSE(tb.is_none());
  EXPECT_TRUE(FindTrack(t, "idle").is_none());
  EXPECT_EQ(t.tracks().kind(ta), TrackKind::kHostThread);
  EXPECT_EQ(t.tracks().tid(ta), 300);
  EXPECT_EQ(t.tracks().tid(tb), -12);
  EXPECT_LT(t.tracks().sort_index(tb), t.tracks().sort_index(ta));  // by id
  EXPECT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.instants().size(), 1u);
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(ta))), "/host:CPU");
}

TEST(XSpaceLoader, MalformedEventIsAnErrorNamingItsPathAndOffset) {
  GpuFixture f;
  PlaneBuilder::Event(f.stream, f.gpu.EventMd("k"), 0, 1000);
  std::string bytes = Serialize(f.space);
  // The event is the innermost message; its last byte is the duration varint
  // (1000 = E8 07). Make that a continuation byte with nothing after it.
  const size_t event_at = bytes.rfind(std::string("\x18\xE8\x07", 3));
  ASSERT_NE(event_at, std::string::npos);
  bytes[event_at + 2] = '\x87';
  auto result = loaders::LoadXSpaceBytes(bytes, "bad.xplane.pb");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, LoadErrorCode::kProtobufInvalid);
  EXPECT_EQ(result.error().byte_offset, event_at + 1);  // where the varint starts
  EXPECT_NE(result.error().message.find("XSpace.planes[0] \"/device:GPU:3\".lines[0] \"Stream #14(Compute)\".events[0]"),
            std::string::npos)
      << result.error().message;
}

TEST(XSpaceLoader, InvalidUtf8IsRepairedAndReported) {
  GpuFixture f;
  const int64_t text = f.gpu.StatMd("annotation");
  auto* e = PlaneBuilder::Event(f.stream, f.gpu.EventMd("bad\xff" "name"), 0, 1000);
  PlaneBuilder::Stat(e->mutable_stats(), text)->set_str_value("caf\xc3\xa9 \xe2\x82");  // valid 2-byte, cut 3-byte
  const Trace t = Load(f.space);
  ASSERT_EQ(t.slices().size(), 1u);
  EXPECT_EQ(t.str(t.slices().name()[0]), "bad\xEF\xBF\xBDname");
  EXPECT_EQ(ArgStrings(t, t.slices().arg_set()[0]),
            std::vector<std::string>{"annotation=caf\xc3\xa9 \xEF\xBF\xBD\xEF\xBF\xBD"});
  EXPECT_EQ(t.diagnostics().count(DiagCode::kInvalidUtf8), 2u);
}

// The decode worker (threads > 1) and the inline path give the same trace.
TEST(XSpaceLoader, ThreadedDecodeMatchesSingleThreaded) {
  GpuFixture f;
  const int64_t corr = f.gpu.StatMd("correlation_id");
  const int64_t k = f.gpu.EventMd("kernel");
  for (int i = 0; i < 40000; ++i) {  // more than two decode chunks
    auto* e = PlaneBuilder::Event(f.stream, k, i * 2000, 1000);
    PlaneBuilder::Stat(e->mutable_stats(), corr)->set_uint64_value(static_cast<uint64_t>(i));
  }
  PlaneBuilder::Event(f.gpu.Line(15, "Stream #15(Compute)"), k, 0, 1000);
  LoadOptions one, two;
  one.threads = 1;
  two.threads = 2;
  const Trace a = Load(f.space, one);
  const Trace b = Load(f.space, two);
  ASSERT_EQ(a.slices().size(), 40001u);
  ASSERT_EQ(b.slices().size(), a.slices().size());
  for (size_t i = 0; i < a.slices().size(); ++i) {
    ASSERT_EQ(a.slices().start_ns()[i], b.slices().start_ns()[i]);
    ASSERT_EQ(a.slices().track()[i], b.slices().track()[i]);
    ASSERT_EQ(ArgStrings(a, a.slices().arg_set()[i]), ArgStrings(b, b.slices().arg_set()[i]));
  }
}

TEST(XSpaceLoader, EmptyInputIsAnError) {
  auto result = loaders::LoadXSpaceBytes("", "empty.xplane.pb");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, LoadErrorCode::kEmpty);
}

}  // namespace
}  // namespace stepline::testing
