// Critical paths on the planted demo steps (demo_planted.h), whose paths are
// derived by hand, and the report's JSON-facing figures built from them.
#include <gtest/gtest.h>

#include <numeric>

#include "demo/demo_planted.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"

namespace stepline::analysis {
namespace {

DurNs CriticalPathUs(int64_t us) { return us * 1000; }

TEST(CriticalPathTest, PlantedStepsHaveTheirKnownPaths) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.steps.source, StepSource::kProfilerStep);
  ASSERT_EQ(a.critical_paths.size(), demo::kPlantedPaths.size());
  for (size_t i = 0; i < demo::kPlantedPaths.size(); ++i) {
    const demo::PlantedPath& want = demo::kPlantedPaths[i];
    const CriticalPath& p = a.critical_paths[i];
    SCOPED_TRACE(want.bound);
    EXPECT_EQ(p.dur_ns, CriticalPathUs(1000));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kHost)], CriticalPathUs(want.host_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kLaunch)], CriticalPathUs(want.launch_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kGpu)], CriticalPathUs(want.gpu_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kSync)], CriticalPathUs(want.sync_us));
    EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kIdle)], CriticalPathUs(want.idle_us));
    EXPECT_EQ(std::accumulate(p.by_kind_ns.begin(), p.by_kind_ns.end(), DurNs{0}), p.dur_ns);
    // Segments tile the path in time order.
    TimeNs at = p.start_ns;
    for (const PathSegment& seg : p.segments) {
      EXPECT_EQ(seg.start_ns, at);
      at = seg.start_ns + seg.dur_ns;
    }
    EXPECT_EQ(at, p.start_ns + p.dur_ns);
    // The top host name is the one planted.
    std::string top_host;
    DurNs top_ns = -1;
    for (const auto& [name, ns] : p.top) {
      const std::string_view n = trace.str(name);
      if (n.starts_with("cuda") || n == "gemm" || n == "add" || n == "reduce") continue;
      if (ns > top_ns) {
        top_ns = ns;
        top_host = std::string(n);
      }
    }
    EXPECT_EQ(top_host, want.top_host);
  }
}

TEST(CriticalPathTest, InputBoundStepSentenceNamesTheLoader) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  const TraceAnalysis a = ComputeAnalysis(trace);
  // Over the four steps GPU time leads: 190 + 980 + 5 + 100 = 1275 us of 4000, most in gemm.
  EXPECT_EQ(a.critical_path_total.main_kind, PathKind::kGpu);
  EXPECT_EQ(a.critical_path_total.by_kind_ns[size_t(PathKind::kGpu)], CriticalPathUs(1275));
  EXPECT_EQ(a.critical_path_total.by_kind_ns[size_t(PathKind::kLaunch)], CriticalPathUs(1100));
  EXPECT_EQ(a.critical_path_sentence, "32% of the critical path is GPU compute, most in `gemm`: only faster kernels shorten the steps");
  // One step alone: the input-bound step's sentence names the DataLoader call.
  const CriticalPathTotal first = SumCriticalPaths(trace, std::span<const CriticalPath>(a.critical_paths).first(1));
  EXPECT_EQ(first.main_kind, PathKind::kHost);
  EXPECT_EQ(CriticalPathSentence(trace, first),
            "80% of the critical path is host time in `enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`: "
            "less host work there, or overlapping it with the GPU, shortens the steps");
}

TEST(CriticalPathTest, ReportCarriesEachStepsPath) {
  const Trace trace = demo::PlantedCriticalPathTrace();
  const Report r = ComputeReport(trace);
  ASSERT_EQ(r.steps.size(), 4u);
  const ReportCriticalPath& p = r.steps[2].critical_path;
  EXPECT_EQ(p.dur_ns, CriticalPathUs(1000));
  EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kLaunch)], CriticalPathUs(980));
  ASSERT_FALSE(p.top.empty());
  EXPECT_EQ(p.top.front().first, "cudaLaunchKernel");
  // 49 launches, 1 kernel, the sync, zero_grad (and no marker: it holds no time).
  EXPECT_EQ(p.slices.size(), 52u);
  EXPECT_EQ(r.critical_path_total.dur_ns, CriticalPathUs(4000));
}

TEST(CriticalPathTest, UnrecordedHostWorkInsideAStepIsTheMarkers) {
  const Trace trace = demo::PlantedServingTrace(demo::PlantedEngine::kSglang);
  const TraceAnalysis a = ComputeAnalysis(trace);
  ASSERT_EQ(a.critical_paths.size(), 7u);
  // Prefill: after its launch, nothing but the step's own annotation is
  // recorded on the host until the step ends: that annotation holds the time.
  const CriticalPath& p = a.critical_paths[0];
  EXPECT_EQ(p.dur_ns, CriticalPathUs(10'000));
  EXPECT_EQ(p.by_kind_ns[size_t(PathKind::kHost)] + p.by_kind_ns[size_t(PathKind::kLaunch)], CriticalPathUs(10'000));
}

}  // namespace
}  // namespace stepline::analysis
