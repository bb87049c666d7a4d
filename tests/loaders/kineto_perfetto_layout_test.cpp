// Kineto's Perfetto layout (loaders/perfetto/kineto_layout.h): GPU streams
// and their device, GpuKinds by category and name, launch links from shared
// flow ids, typed args, overlapping kernels on one stream, a plain Perfetto
// trace left alone, and a real Kineto trace in this layout cut at 20 offsets.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <string>
#include <vector>

#include "loaders/load.h"
#include "loaders/perfetto/perfetto_loader.h"
#include "model/analysis/self_time.h"
#include "tests/loaders/perfetto_test_encoder.h"
#include "tests/support/file_bytes.h"
#include "tests/support/kineto_perfetto_convert.h"
#include "tests/support/test_traces.h"

namespace stepline::testing {
namespace {

using namespace pftest;  // NOLINT: the encoder's vocabulary reads as the trace

Trace KplLoad(const std::string& bytes) {
  auto r = loaders::LoadPerfettoBytes(bytes, "kineto.pftrace");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().ToString());
  return std::move(r).value();
}

Msg KplEvent(int type, uint64_t track, std::string_view name, std::string_view category, uint64_t flow_id) {
  Msg e;
  e.Varint(9, static_cast<uint64_t>(type)).Varint(11, track);
  if (!name.empty()) e.Bytes(23, name);
  if (!category.empty()) e.Bytes(22, category);
  if (flow_id != 0) e.Fixed64(47, flow_id);
  return e;
}
Msg KplAt(uint64_t ts, Msg event) { return WithEvent(Packet(1, ts), event); }

// pid 4242 with a CPU thread (uuid 2); process "GPU 1" (pid 1) with stream 7
// (uuid 4); launches 11 and 12 on the CPU thread, a kernel, a copy and a
// memset on the stream, two kernels overlapping (programmatic dependent
// launch), a ProfilerStep#3 user annotation, and an arrow id (99) that is
// not a launch.
std::string KplTrace() {
  return TraceOf({
      ProcessTrack(1, 4242, "python"), ThreadTrack(2, 1, 4242, 4243, "main"), ProcessTrack(3, 1, "GPU 1"),
      ThreadTrack(4, 3, 1, 7, "stream 7"),
      KplAt(100, KplEvent(1, 2, "ProfilerStep#3", "user_annotation", 0)), KplAt(900, KplEvent(2, 2, "", "", 0)),
      KplAt(110, KplEvent(1, 2, "aten::mm", "cpu_op", 99)), KplAt(200, KplEvent(2, 2, "", "", 0)),
      KplAt(120, KplEvent(1, 2, "cudaLaunchKernel", "cuda_runtime", 11)), KplAt(130, KplEvent(2, 2, "", "", 0)),
      KplAt(140, KplEvent(1, 2, "cudaMemcpyAsync", "cuda_runtime", 12)), KplAt(150, KplEvent(2, 2, "", "", 0)),
      KplAt(300, KplEvent(1, 2, "aten::relu", "cpu_op", 99)), KplAt(310, KplEvent(2, 2, "", "", 0)),
      KplAt(400, [&] {
        Msg e = KplEvent(1, 4, "gemm_kernel", "kernel", 11);
        e.Sub(4, IntArg("correlation", 11)).Sub(4, StringArg("device", "1"));
        return e;
      }()),
      KplAt(500, KplEvent(2, 4, "", "", 0)),
      KplAt(450, KplEvent(1, 4, "gemm_kernel_pdl", "kernel", 0)), KplAt(560, KplEvent(2, 4, "", "", 0)),
      KplAt(600, KplEvent(1, 4, "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 12)),
      KplAt(650, KplEvent(2, 4, "", "", 0)),
      KplAt(700, KplEvent(1, 4, "Memset (Device)", "gpu_memset", 0)), KplAt(710, KplEvent(2, 4, "", "", 0)),
      KplAt(720, KplEvent(1, 4, "ncclDevKernel_AllReduce", "kernel", 0)), KplAt(730, KplEvent(2, 4, "", "", 0)),
  });
}

SliceId KplSlice(const Trace& t, std::string_view name) {
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (t.str(t.slices().name()[i]) == name) return SliceId::FromIndex(i);
  }
  ADD_FAILURE() << "no slice " << name;
  return SliceId::FromIndex(0);
}

TEST(KinetoPerfettoLayout, DeviceThreadsBecomeStreamsOfTheirGpu) {
  const Trace t = KplLoad(KplTrace());
  const TrackId stream = t.slices().track()[KplSlice(t, "gemm_kernel").index()];
  EXPECT_EQ(t.tracks().kind(stream), TrackKind::kGpuStream);
  EXPECT_EQ(t.tracks().device_id(stream), 1);
  const TrackId host = t.slices().track()[KplSlice(t, "aten::mm").index()];
  EXPECT_EQ(t.tracks().kind(host), TrackKind::kHostThread);
  const auto kind = [&](std::string_view name) { return t.slices().gpu_kind()[KplSlice(t, name).index()]; };
  EXPECT_EQ(kind("gemm_kernel"), GpuKind::kKernel);
  EXPECT_EQ(kind("gemm_kernel_pdl"), GpuKind::kKernel);
  EXPECT_EQ(kind("Memcpy HtoD (Pageable -> Device)"), GpuKind::kMemcpyH2D);
  EXPECT_EQ(kind("Memset (Device)"), GpuKind::kMemset);
  EXPECT_EQ(kind("ncclDevKernel_AllReduce"), GpuKind::kCollective);
  EXPECT_EQ(kind("cudaLaunchKernel"), GpuKind::kNone);
}

TEST(KinetoPerfettoLayout, SharedFlowIdsBecomeLaunchLinksAndOthersStayArrows) {
  const Trace t = KplLoad(KplTrace());
  const FlowTable& f = t.flows();
  std::vector<std::string> got;
  for (size_t i = 0; i < f.size(); ++i) {
    got.push_back(std::string(f.kind()[i] == FlowKind::kLaunch ? "launch " : "arrow ") +
                  std::string(t.str(t.slices().name()[f.from()[i].index()])) + " -> " +
                  std::string(t.str(t.slices().name()[f.to()[i].index()])));
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"arrow aten::mm -> aten::relu", "launch cudaLaunchKernel -> gemm_kernel",
                                           "launch cudaMemcpyAsync -> Memcpy HtoD (Pageable -> Device)"}));
}

TEST(KinetoPerfettoLayout, OverlappingKernelsOnOneStreamAreBothKept) {
  const Trace t = KplLoad(KplTrace());
  const SliceId first = KplSlice(t, "gemm_kernel"), second = KplSlice(t, "gemm_kernel_pdl");
  EXPECT_EQ(t.slices().start_ns()[first.index()], 400);
  EXPECT_EQ(t.slices().dur_ns()[first.index()], 100);
  EXPECT_EQ(t.slices().start_ns()[second.index()], 450);
  EXPECT_EQ(t.slices().dur_ns()[second.index()], 110);
  // Neither is the other's child: the later one is drawn in the next lane,
  // and each one's self time is its whole duration.
  EXPECT_TRUE(t.slices().parent()[second.index()].is_none());
  EXPECT_EQ(t.slices().depth()[second.index()], t.slices().depth()[first.index()] + 1);
  const std::vector<DurNs> self = analysis::SelfTimes(t);
  EXPECT_EQ(self[first.index()], 100);
  EXPECT_EQ(self[second.index()], 110);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kOverlappingSlices), 0u);
  EXPECT_EQ(t.diagnostics().count(DiagCode::kOverlappingDeviceWork), 1u);
}

TEST(KinetoPerfettoLayout, DebugAnnotationsKeepTheirTypes) {
  const Trace t = KplLoad(KplTrace());
  const ArgSetId set = t.slices().arg_set()[KplSlice(t, "gemm_kernel").index()];
  ArgValue v;
  ASSERT_TRUE(t.args().Find(set, t.strings().Find("correlation"), &v));
  EXPECT_EQ(v.type, ArgType::kInt);
  ASSERT_TRUE(t.args().Find(set, t.strings().Find("device"), &v));
  EXPECT_EQ(v.type, ArgType::kString);
}

TEST(KinetoPerfettoLayout, APerfettoTraceWithoutKinetoCategoriesKeepsItsArrows) {
  const Trace t = KplLoad(TraceOf({
      ProcessTrack(1, 10, "app"), ThreadTrack(2, 1, 10, 11, "main"),
      KplAt(100, KplEvent(1, 2, "a", "cuda_runtime", 5)), KplAt(110, KplEvent(2, 2, "", "", 0)),
      KplAt(200, KplEvent(1, 2, "b", "app", 5)), KplAt(210, KplEvent(2, 2, "", "", 0)),
  }));
  ASSERT_EQ(t.flows().size(), 1u);
  EXPECT_EQ(t.flows().kind()[0], FlowKind::kGeneric);
  EXPECT_EQ(t.tracks().kind(t.slices().track()[0]), TrackKind::kHostThread);
}

std::string KplGunzip(const std::string& bytes) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 32) != Z_OK) return {};
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END ? out : std::string();
}

size_t KplKernels(const Trace& t) {
  size_t n = 0;
  for (GpuKind k : t.slices().gpu_kind()) n += k == GpuKind::kKernel || k == GpuKind::kCollective;
  return n;
}

// Every cut of a real trace in this layout loads the packets before the cut
// with a kTruncated diagnostic, and never loses a kernel a shorter cut kept.
TEST(KinetoPerfettoLayout, ARealTraceCutAt20OffsetsLoadsWhatPrecedesTheCut) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string path =
      SharedTracePath("hta/critical_path_cuda_event_sync_multi_stream_event_sync_trace.json.gz");
  const auto converted = ConvertKinetoJsonToPerfetto(KplGunzip(ReadFileBytes(path)));
  ASSERT_EQ(converted.error, "");
  const std::string& whole = converted.bytes;
  auto full = loaders::LoadBytes(whole, "kineto.pftrace");
  ASSERT_TRUE(full.ok()) << full.error().ToString();
  ASSERT_GT(KplKernels(*full), 0u);
  // Packet ends: a cut there leaves whole packets only, which is no cut.
  std::vector<uint64_t> packet_ends;
  for (uint64_t at = 0; at < whole.size();) {
    uint64_t length = 0;
    int shift = 0;
    ++at;  // the tag of Trace.packet, one byte
    while (at < whole.size() && (static_cast<uint8_t>(whole[at]) & 0x80)) {
      length |= uint64_t{static_cast<uint8_t>(whole[at++]) & 0x7Fu} << shift;
      shift += 7;
    }
    length |= uint64_t{static_cast<uint8_t>(whole[at++])} << shift;
    at += length;
    packet_ends.push_back(at);
  }
  size_t previous = 0;
  for (int k = 1; k <= 20; ++k) {
    uint64_t cut = whole.size() * k / 21;
    if (std::find(packet_ends.begin(), packet_ends.end(), cut) != packet_ends.end()) ++cut;
    auto r = loaders::LoadBytes(std::string_view(whole).substr(0, cut), "kineto.pftrace");
    ASSERT_TRUE(r.ok()) << "cut at " << cut << ": " << r.error().ToString();
    EXPECT_EQ(r->CheckInvariants(), "") << "cut at " << cut;
    const auto& truncated = r->diagnostics().entry(DiagCode::kTruncated);
    EXPECT_EQ(truncated.count, 1u) << "cut at " << cut;
    if (!truncated.instances.empty()) {
      EXPECT_NE(truncated.instances[0].detail.find("ends at byte " + std::to_string(cut)), std::string::npos);
    }
    const size_t kernels = KplKernels(*r);
    EXPECT_LE(kernels, KplKernels(*full)) << "cut at " << cut;
    EXPECT_GE(kernels, previous) << "cut at " << cut;
    previous = kernels;
  }
}

}  // namespace
}  // namespace stepline::testing
