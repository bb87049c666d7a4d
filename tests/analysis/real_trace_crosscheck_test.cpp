// The analysis on the shared real traces (../shared/traces), checked against
// independent brute-force computations from the raw slice table:
//  - per device, kernel busy time, idle time and the GPU-active span, by a
//    +1/-1 boundary sweep (the analysis merges sorted intervals instead);
//  - every step's categories sum to its duration, and its compute +
//    collective time equals the brute-force kernel time inside the step;
//  - idle by cause sums to the idle time;
//  - on hta/*, each stream's idle time equals HTA's definition (the sum of
//    start - previous end over the stream's GPU ops in start order) on every
//    stream whose ops do not overlap; where they do, HTA's sum undercounts by
//    the overlap and the analysis' union is used instead (docs/analysis.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <numeric>

#include "loaders/load.h"
#include "model/analysis/device_activity.h"
#include "model/analysis/report.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

std::vector<std::string> RealTraces(std::vector<const char*> folders) {
  std::vector<std::string> paths;
  const std::string dir = ::stepline::testing::SharedTracesDir();
  if (dir.empty()) return paths;
  for (const char* sub : folders) {
    const std::filesystem::path p = std::filesystem::path(dir) / sub;
    if (!std::filesystem::is_directory(p)) continue;
    for (const auto& e : std::filesystem::directory_iterator(p)) {
      if (e.path().extension() != ".tsv") paths.push_back(e.path().string());  // not the folder's MANIFEST.tsv
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

int32_t DeviceOf(const Trace& t, TrackId track) {
  const int32_t id = t.tracks().device_id(track);
  return id >= 0 ? id : t.processes().device_id(t.tracks().process(track));
}

// Kernel time as a sweep over +1/-1 boundaries, optionally clipped to a range.
struct Sweep {
  DurNs busy_ns = 0;
  TimeRange span{INT64_MAX, INT64_MIN};
};
Sweep BruteForceKernels(const Trace& t, int32_t device, TimeRange clip = {INT64_MIN, INT64_MAX}) {
  std::vector<std::pair<TimeNs, int>> edges;
  Sweep out;
  for (size_t i = 0; i < t.slices().size(); ++i) {
    if (!IsKernelLike(t.slices().gpu_kind()[i]) || DeviceOf(t, t.slices().track()[i]) != device) continue;
    const TimeNs s = std::max(t.slices().start_ns()[i], clip.start_ns);
    const TimeNs e = std::min(t.slices().start_ns()[i] + t.slices().dur_ns()[i], clip.end_ns);
    if (e <= s) continue;
    edges.push_back({s, +1});
    edges.push_back({e, -1});
    out.span.start_ns = std::min(out.span.start_ns, s);
    out.span.end_ns = std::max(out.span.end_ns, e);
  }
  std::sort(edges.begin(), edges.end());
  int depth = 0;
  TimeNs last = 0;
  for (const auto& [time, delta] : edges) {
    if (depth > 0) out.busy_ns += time - last;
    depth += delta;
    last = time;
  }
  return out;
}

class RealTraceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RealTraceTest, BusyIdleAndBreakdownsMatchBruteForce) {
  auto loaded = loaders::LoadFile(GetParam());
  if (!loaded.ok()) GTEST_SKIP() << "not loadable here: " << GetParam();
  const Trace& t = loaded.value();
  const Report r = ComputeReport(t);
  for (const DeviceReport& d : r.devices) {
    SCOPED_TRACE(d.name);
    const Sweep bf = BruteForceKernels(t, d.device_id);
    EXPECT_EQ(d.busy_ns, bf.busy_ns);
    if (d.busy_ns > 0) {
      EXPECT_EQ(d.active_span.start_ns, bf.span.start_ns);
      EXPECT_EQ(d.active_span.end_ns, bf.span.end_ns);
      EXPECT_EQ(d.idle_ns, bf.span.duration_ns() - bf.busy_ns);
    }
    EXPECT_EQ(std::accumulate(d.idle_by_cause.begin(), d.idle_by_cause.end(), DurNs{0}), d.idle_ns);
    ASSERT_EQ(d.steps.size(), r.steps.size());
    for (size_t k = 0; k < r.steps.size(); ++k) {
      const StepBreakdown& b = d.steps[k];
      // The step's window (the recorded extent unless the next step overlaps it).
      const TimeRange step{r.steps[k].start_ns, r.steps[k].start_ns + r.steps[k].window_dur_ns};
      EXPECT_EQ(std::accumulate(b.category_ns.begin(), b.category_ns.end(), DurNs{0}), step.duration_ns()) << k;
      const DurNs kernel_ns = At(b.category_ns, TimeCategory::kCompute) + At(b.category_ns, TimeCategory::kCollective);
      EXPECT_EQ(kernel_ns, BruteForceKernels(t, d.device_id, step).busy_ns) << "step " << k;
      EXPECT_EQ(std::accumulate(b.idle_by_cause.begin(), b.idle_by_cause.end(), DurNs{0}),
                step.duration_ns() - kernel_ns)
          << "step " << k;
    }
  }
}

class HtaTraceTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HtaTraceTest, StreamIdleMatchesHtaDefinition) {
  auto loaded = loaders::LoadFile(GetParam());
  ASSERT_TRUE(loaded.ok());
  const Trace& t = loaded.value();
  size_t compared = 0;
  const std::vector<StreamIdle> streams = ComputeStreamIdle(t);
  for (const StreamIdle& s : streams) {
    // HTA: ops of the stream sorted by start; idle = sum of (start - previous end).
    std::vector<std::pair<TimeNs, TimeNs>> ops;
    const auto& r = t.tracks().ranges(s.stream);
    for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
      if (t.slices().gpu_kind()[i] != GpuKind::kNone)
        ops.push_back({t.slices().start_ns()[i], t.slices().end_ns(SliceId(i))});
    }
    std::sort(ops.begin(), ops.end());
    DurNs hta_idle = 0;
    bool overlap = false;
    for (size_t i = 1; i < ops.size(); ++i) {
      hta_idle += ops[i].first - ops[i - 1].second;
      overlap |= ops[i].first < ops[i - 1].second;
    }
    EXPECT_EQ(overlap, s.has_overlap);
    if (!s.has_overlap) {
      EXPECT_EQ(s.idle_ns, hta_idle) << "stream " << t.str(t.tracks().name(s.stream));
      ++compared;
    } else {
      EXPECT_LE(hta_idle, s.idle_ns);  // HTA subtracts the overlap again
    }
  }
  if (!streams.empty()) {
    EXPECT_GT(compared, 0u) << "no stream without overlaps to compare";
  }
  RecordProperty("streams", static_cast<int>(streams.size()));
  RecordProperty("streams_compared", static_cast<int>(compared));
}

std::string ParamName(const ::testing::TestParamInfo<std::string>& p) {
  std::string n = std::filesystem::path(p.param).filename().string();
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, RealTraceTest,
                         ::testing::ValuesIn(RealTraces({"hta", "kineto", "tracelens", "xprof", "nsys", "rocprof"})),
                         ParamName);
INSTANTIATE_TEST_SUITE_P(SharedTraces, HtaTraceTest, ::testing::ValuesIn(RealTraces({"hta"})), ParamName);
// Without the shared traces both lists are empty: nothing to run, not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RealTraceTest);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HtaTraceTest);

}  // namespace
}  // namespace stepline::analysis
