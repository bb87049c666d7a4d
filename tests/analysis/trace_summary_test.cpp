// ComputeTraceSummary on a hand-built trace with known counts.
#include "model/analysis/trace_summary.h"

#include <gtest/gtest.h>

namespace stepline::analysis {
namespace {

TEST(TraceSummaryTest, CountsGpuKindsStepsAndTracks) {
  Trace trace;
  StringPool& s = trace.mutable_strings();
  const ProcessId host = trace.mutable_processes().Append({100, s.Intern("python"), 0, -1});
  const ProcessId gpu = trace.mutable_processes().Append({0, s.Intern("GPU 0"), 0, 0});
  const TrackId main = trace.mutable_tracks().Append({TrackKind::kHostThread, host, 1, {}, 0, -1, {}});
  const TrackId stream = trace.mutable_tracks().Append({TrackKind::kGpuStream, gpu, 7, {}, 0, 0, {}});
  const TrackId steps_row = trace.mutable_tracks().Append({TrackKind::kGpuDerived, gpu, 99, s.Intern("Steps"), 0, 0, {}});
  const TrackId steps_row_2 =
      trace.mutable_tracks().Append({TrackKind::kGpuDerived, gpu, 98, s.Intern("Steps"), 0, 1, {}});
  SliceTable& t = trace.mutable_slices();
  t.Append({main, 0, 1000, s.Intern("ProfilerStep#1"), {}, {}, GpuKind::kNone});
  t.Append({main, 1000, 1000, s.Intern("ProfilerStep#2"), {}, {}, GpuKind::kNone});
  t.Append({stream, 10, 100, s.Intern("gemm"), {}, {}, GpuKind::kKernel});
  t.Append({stream, 200, 50, s.Intern("ncclAllReduce"), {}, {}, GpuKind::kCollective});
  t.Append({stream, 300, 30, s.Intern("Memcpy HtoD"), {}, {}, GpuKind::kMemcpyH2D});
  t.Append({stream, 400, 20, s.Intern("Memcpy DtoD"), {}, {}, GpuKind::kMemcpyD2D});
  // The same TF step shown on two devices' Steps rows counts once.
  t.Append({steps_row, 0, 500, s.Intern("1"), {}, {}, GpuKind::kNone});
  t.Append({steps_row_2, 0, 500, s.Intern("1"), {}, {}, GpuKind::kNone});
  t.Append({steps_row, 500, 500, s.Intern("2"), {}, {}, GpuKind::kNone});
  trace.Finalize();

  const TraceSummary sum = ComputeTraceSummary(trace);
  EXPECT_EQ(sum.slices, 9u);
  EXPECT_EQ(sum.gpu_count[static_cast<size_t>(GpuKind::kKernel)], 1u);
  EXPECT_EQ(sum.gpu_ns[static_cast<size_t>(GpuKind::kKernel)], 100);
  EXPECT_EQ(sum.gpu_count[static_cast<size_t>(GpuKind::kCollective)], 1u);
  EXPECT_EQ(sum.gpu_ns[static_cast<size_t>(GpuKind::kMemcpyH2D)], 30);
  EXPECT_EQ(sum.gpu_count[static_cast<size_t>(GpuKind::kMemcpyD2D)], 1u);
  EXPECT_EQ(sum.devices, 1u);
  // The report's steps: a Steps row wins over ProfilerStep#
  // markers, and the primary device's row holds 2 steps.
  EXPECT_EQ(sum.steps, 2u);
  EXPECT_EQ(sum.tracks_by_kind[static_cast<size_t>(TrackKind::kGpuDerived)], 2u);
  EXPECT_EQ(sum.tracks_by_kind[static_cast<size_t>(TrackKind::kHostThread)], 1u);
  EXPECT_EQ(sum.span_ns, 2000);
}

}  // namespace
}  // namespace stepline::analysis
