// GPU render stage events (loaders/perfetto/render_stages.h): a synthetic
// trace with known answers. A CUDA-like producer writes kernels and a copy on
// two queues of GPU 1, interned per sequence; a driver writes one stage in
// the deprecated specifications form on GPU 0; host TrackEvents name the GPU
// events they submitted or waited for with the GpuCorrelation extension.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "loaders/perfetto/perfetto_loader.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/loaders/perfetto_test_encoder.h"

namespace stepline::testing {
namespace {

using namespace pftest;  // NOLINT: the encoder's vocabulary reads as the trace

Trace RsLoad(const std::string& bytes) {
  auto r = loaders::LoadPerfettoBytes(bytes, "render_stages.pftrace");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return std::move(r).value();
}

// The payload of a packed repeated varint field.
std::string RsPacked(const std::vector<uint64_t>& values) {
  std::string out;
  for (uint64_t v : values) {
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    out.push_back(static_cast<char>(v));
  }
  return out;
}

// A host TrackEvent (type 1 begin, 2 end, 3 instant) with a GpuCorrelation:
// submitted ids unpacked, waited ids packed.
Msg RsHost(int type, std::string_view name, std::vector<uint64_t> submitted, std::vector<uint64_t> waited) {
  Msg e;
  e.Varint(9, static_cast<uint64_t>(type)).Varint(11, 2);
  if (!name.empty()) e.Bytes(23, name);
  if (!submitted.empty() || !waited.empty()) {
    Msg correlation;
    for (uint64_t id : submitted) correlation.Varint(1, id);
    if (!waited.empty()) correlation.Bytes(2, RsPacked(waited));
    e.Sub(3000, correlation);
  }
  return e;
}
Msg RsAt(uint64_t ts, Msg event) { return WithEvent(Packet(1, ts), event); }

Msg RsSpec(uint64_t iid, std::string_view name, std::string_view description, uint64_t category) {
  return Msg().Varint(1, iid).Bytes(2, name).Bytes(3, description).Varint(4, category);
}

// One render stage event on sequence 2: queue iid, stage iid, gpu 1.
Msg RsStage(uint64_t ts, uint64_t event_id, uint64_t duration, uint64_t queue, uint64_t stage, std::string_view name) {
  Msg e;
  if (event_id != 0) e.Varint(1, event_id);
  e.Varint(2, duration).Varint(13, queue).Varint(14, stage).Varint(11, 1);
  if (!name.empty()) e.Bytes(17, name);
  return Packet(2, ts).Sub(53, e);
}

std::string RsTrace() {
  Msg specs;
  specs.Sub(24, RsSpec(1, "CUDA stream 7", "compute queue", 2))
      .Sub(24, RsSpec(2, "Kernel", "compute kernels", 2))
      .Sub(24, RsSpec(3, "Memcpy", "copies", 0))
      .Sub(24, RsSpec(4, "copy engine", "", 0))
      .Sub(2, Msg().Varint(1, 5).Bytes(2, "relu_kernel"));  // an interned event name
  Msg relu = Msg().Varint(1, 1002).Varint(2, 30).Varint(13, 1).Varint(14, 2).Varint(11, 1).Varint(20, 5);
  relu.Sub(6, Msg().Bytes(1, "grid").Bytes(2, "[4,1,1]"));
  Msg legacy = Msg().Varint(1, 2001).Varint(2, 10).Varint(3, 0).Varint(4, 0).Varint(11, 0);
  legacy.Sub(7, Msg().Sub(2, Msg().Bytes(1, "GL queue")).Sub(3, Msg().Bytes(1, "fragment")));
  return TraceOf({
      ProcessTrack(1, 4242, "python"),
      ThreadTrack(2, 1, 4242, 4243, "main"),
      RsAt(100, RsHost(1, "cudaLaunchKernel", {1001}, {})), RsAt(120, RsHost(2, "", {}, {})),
      RsAt(130, RsHost(1, "cudaGraphLaunch", {1002, 1003}, {})), RsAt(150, RsHost(2, "", {}, {})),
      RsAt(160, RsHost(1, "cudaDeviceSynchronize", {}, {1003})), RsAt(400, RsHost(2, "", {}, {})),
      RsAt(170, RsHost(3, "cudaMemcpyAsync", {1004}, {})),
      RsAt(180, RsHost(3, "cudaLaunchKernel", {9999}, {})),  // names no GPU event
      Packet(2, 0).Varint(13, 1).Sub(12, specs),             // SEQ_INCREMENTAL_STATE_CLEARED + interning
      RsStage(200, 1001, 50, 1, 2, "gemm_kernel"),
      Packet(2, 260).Sub(53, relu),
      RsStage(280, 1003, 40, 1, 2, "ncclDevKernel_AllReduce"),
      RsStage(330, 1004, 20, 4, 3, "Memcpy HtoD (Pageable -> Device)"),
      RsStage(340, 0, 5, 1, 2, "no_event_id"),  // skipped: no event id
      Packet(3, 500).Sub(53, legacy),
  });
}

SliceId RsSlice(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId::FromIndex(i);
  }
  ADD_FAILURE() << "no slice " << name;
  return SliceId::FromIndex(0);
}

TEST(PerfettoRenderStages, EventsAreGpuSlicesOnTheirQueueOfTheirDevice) {
  const Trace t = RsLoad(RsTrace());
  const auto track_of = [&](std::string_view name) { return t.slices().track()[RsSlice(t, name).index()]; };
  const TrackId stream = track_of("gemm_kernel");
  EXPECT_EQ(t.tracks().kind(stream), TrackKind::kGpuStream);
  EXPECT_EQ(t.tracks().device_id(stream), 1);
  EXPECT_EQ(t.str(t.tracks().name(stream)), "CUDA stream 7");
  EXPECT_EQ(track_of("relu_kernel"), stream);
  EXPECT_EQ(track_of("ncclDevKernel_AllReduce"), stream);
  const TrackId copies = track_of("Memcpy HtoD (Pageable -> Device)");
  EXPECT_NE(copies, stream);
  EXPECT_EQ(t.str(t.tracks().name(copies)), "copy engine");
  EXPECT_EQ(t.tracks().device_id(copies), 1);
  EXPECT_EQ(t.processes().device_id(t.tracks().process(stream)), 1);
  EXPECT_EQ(t.str(t.processes().name(t.tracks().process(stream))), "GPU 1");
  // The deprecated form: names by position in the specifications, gpu_id 0.
  const TrackId gl = track_of("fragment");
  EXPECT_EQ(t.str(t.tracks().name(gl)), "GL queue");
  EXPECT_EQ(t.tracks().device_id(gl), 0);
  EXPECT_EQ(t.tracks().kind(gl), TrackKind::kGpuStream);

  const SliceId gemm = RsSlice(t, "gemm_kernel");
  EXPECT_EQ(t.slices().start_ns()[gemm.index()], 200);
  EXPECT_EQ(t.slices().dur_ns()[gemm.index()], 50);
  EXPECT_EQ(t.str(t.slices().category()[gemm.index()]), "Kernel");
}

TEST(PerfettoRenderStages, KindsComeFromTheStageAndTheName) {
  const Trace t = RsLoad(RsTrace());
  const auto kind = [&](std::string_view name) { return t.slices().gpu_kind()[RsSlice(t, name).index()]; };
  EXPECT_EQ(kind("gemm_kernel"), GpuKind::kKernel);
  EXPECT_EQ(kind("relu_kernel"), GpuKind::kKernel);
  EXPECT_EQ(kind("ncclDevKernel_AllReduce"), GpuKind::kCollective);
  EXPECT_EQ(kind("Memcpy HtoD (Pageable -> Device)"), GpuKind::kMemcpyH2D);
  EXPECT_EQ(kind("fragment"), GpuKind::kKernel);
  EXPECT_EQ(kind("cudaLaunchKernel"), GpuKind::kNone);
  size_t device_slices = 0;
  for (GpuKind k : t.slices().gpu_kind()) device_slices += k != GpuKind::kNone;
  EXPECT_EQ(device_slices, 5u);  // the event without an event_id is not among them
}

TEST(PerfettoRenderStages, CorrelationsBecomeLaunchLinksAndWaitArrows) {
  const Trace t = RsLoad(RsTrace());
  const FlowTable& f = t.flows();
  std::vector<std::string> got;
  for (size_t i = 0; i < f.size(); ++i) {
    got.push_back(std::string(f.kind()[i] == FlowKind::kLaunch ? "launch " : "arrow ") +
                  std::string(t.str(t.slices().name()[f.from()[i].index()])) + " -> " +
                  std::string(t.str(t.slices().name()[f.to()[i].index()])) + " #" + std::to_string(f.flow_id()[i]));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{
                     "arrow ncclDevKernel_AllReduce -> cudaDeviceSynchronize #1003",
                     "launch cudaGraphLaunch -> ncclDevKernel_AllReduce #1003",
                     "launch cudaGraphLaunch -> relu_kernel #1002",
                     "launch cudaLaunchKernel -> gemm_kernel #1001",
                     "launch cudaMemcpyAsync -> Memcpy HtoD (Pageable -> Device) #1004",
                 }));
}

TEST(PerfettoRenderStages, ArgsAndCountedProblems) {
  const Trace t = RsLoad(RsTrace());
  const ArgSetId relu = t.slices().arg_set()[RsSlice(t, "relu_kernel").index()];
  ArgValue v;
  ASSERT_TRUE(t.args().Find(relu, t.strings().Find("event_id"), &v));
  EXPECT_EQ(v.as_uint(), 1002u);
  ASSERT_TRUE(t.args().Find(relu, t.strings().Find("grid"), &v));
  EXPECT_EQ(t.str(v.as_string()), "[4,1,1]");
  ASSERT_TRUE(t.args().Find(relu, t.strings().Find("description"), &v));
  EXPECT_EQ(t.str(v.as_string()), "compute kernels");
  // Id 9999 names no GPU event; one event has no event_id.
  EXPECT_EQ(t.diagnostics().count(DiagCode::kUnmatchedFlow), 1u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kMissingField), 1u);
}

TEST(PerfettoRenderStages, AnUninternedQueueIsNamedByItsNumber) {
  const Trace t = RsLoad(TraceOf({RsStage(100, 7, 10, 9, 2, "k")}));
  ASSERT_EQ(t.slices().size(), 1u);
  const TrackId track = t.slices().track()[0];
  EXPECT_EQ(t.str(t.tracks().name(track)), "GPU queue 9");
  EXPECT_EQ(t.tracks().kind(track), TrackKind::kGpuStream);
  EXPECT_EQ(t.str(t.slices().name()[0]), "k");
  EXPECT_GE(t.diagnostics().count(DiagCode::kMissingField), 1u);
}

// Every cut of the trace loads (the packets before the cut, a kTruncated
// diagnostic when the cut is inside a packet), never loses a GPU slice a
// shorter cut kept, and (every fourth cut) agrees with itself every way the
// fuzzers load it.
TEST(PerfettoRenderStages, EveryCutLoadsWhatPrecedesIt) {
  const std::string whole = RsTrace();
  size_t previous = 0;
  for (size_t cut = 1; cut <= whole.size(); ++cut) {
    const std::string_view prefix = std::string_view(whole).substr(0, cut);
    auto r = loaders::LoadPerfettoBytes(prefix, "cut.pftrace");
    ASSERT_TRUE(r.ok()) << "cut at " << cut << ": " << r.error().ToString();
    size_t gpu = 0;
    for (GpuKind k : r->slices().gpu_kind()) gpu += k != GpuKind::kNone;
    EXPECT_GE(gpu, previous) << "cut at " << cut;
    previous = gpu;
    if (cut % 4 != 0 && cut != whole.size()) continue;  // every way, four loads each: a quarter of the cuts
    const std::string finding = fuzz::CheckEveryWay([&](const loaders::LoadOptions& options) {
      return loaders::LoadPerfettoBytes(prefix, "cut.pftrace", options);
    });
    EXPECT_EQ(finding, "") << "cut at " << cut;
  }
  EXPECT_EQ(previous, 5u);
}

}  // namespace
}  // namespace stepline::testing
