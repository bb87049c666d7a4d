// Invariants of the analysis, on every shared real trace and every demo
// scenario (a property test over the model and the Report that `report
// --json` writes): each step's breakdown sums to its window; idle by cause
// sums to idle; shares and percentages lie in [0, 100]; a kernel's self time
// is its duration; what is attributed live at a memory peak never exceeds
// the bytes allocated in the capture, and nothing is attributed without
// addresses; the allocation counts agree with one another; on a cut file the
// whole-step figures use only the steps before the cut. Files the loaders
// cannot read (the corrupt folder, pickles) are skipped, named.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "demo/demo_generator.h"
#include "demo/demo_scenarios.h"
#include "loaders/load.h"
#include "model/analysis/report.h"
#include "model/analysis/trace_analysis.h"
#include "tests/support/test_traces.h"

namespace stepline::analysis {
namespace {

constexpr double kEps = 1e-6;

template <typename A>
DurNs Sum(const A& a) {
  return std::accumulate(a.begin(), a.end(), DurNs{0});
}

// The busiest stream's busy time inside [range]: its GPU ops' union, clipped.
DurNs InvariantsBusiestStreamNs(const Trace& trace, const TraceAnalysis& a, TimeRange range) {
  DurNs best = 0;
  const SliceTable& s = trace.slices();
  for (const DeviceAnalysis& d : a.devices) {
    for (TrackId stream : d.activity.streams) {
      const auto& r = trace.tracks().ranges(stream);
      DurNs busy = 0;
      TimeNs reach = range.start_ns;
      for (uint32_t i = r.slice_begin; i < r.slice_end; ++i) {
        if (s.gpu_kind()[i] == GpuKind::kNone) continue;
        const TimeNs lo = std::max(s.start_ns()[i], reach);
        const TimeNs hi = std::min(s.start_ns()[i] + s.dur_ns()[i], range.end_ns);
        if (hi > lo) busy += hi - lo;
        reach = std::max(reach, hi);
      }
      best = std::max(best, busy);
    }
  }
  return best;
}

// Each step's critical path is no longer than the step and no shorter than
// its busiest stream; its kinds sum to its length.
void CheckCriticalPathInvariants(const Trace& trace, const TraceAnalysis& a) {
  ASSERT_EQ(a.critical_paths.size(), a.steps.steps.size());
  for (size_t i = 0; i < a.critical_paths.size(); ++i) {
    const CriticalPath& p = a.critical_paths[i];
    const Step& st = a.steps.steps[i];
    EXPECT_LE(p.dur_ns, st.window_dur_ns) << "critical path of step " << i << " longer than the step";
    EXPECT_GE(p.dur_ns, InvariantsBusiestStreamNs(trace, a, TimeRange{st.start_ns, st.window_end_ns()}))
        << "critical path of step " << i << " shorter than its busiest stream";
    EXPECT_EQ(Sum(p.by_kind_ns), p.dur_ns) << "step " << i;
  }
}

void CheckInvariants(const Trace& trace, const std::string& what) {
  SCOPED_TRACE(what);
  const TraceAnalysis a = ComputeAnalysis(trace);
  const Report r = ResolveReport(trace, a);
  // Steps: each breakdown sums to its window, on every device.
  for (const DeviceAnalysis& d : a.devices) {
    ASSERT_EQ(d.steps.size(), a.steps.steps.size());
    for (size_t i = 0; i < d.steps.size(); ++i) {
      EXPECT_EQ(Sum(d.steps[i].category_ns), a.steps.steps[i].window_dur_ns) << "step " << i;
    }
    EXPECT_EQ(Sum(d.idle_by_cause), d.idle_ns) << "device idle by cause";
    EXPECT_EQ(Sum(d.breakdown_total), a.step_stats.window_total_ns);
  }
  // The report's steps carry the primary device's breakdown (none without a device).
  if (r.primary_device_index >= 0) {
    for (const ReportStep& s : r.steps) EXPECT_EQ(Sum(s.breakdown), s.window_dur_ns) << s.name;
  }
  CheckCriticalPathInvariants(trace, a);
  // Shares and percentages.
  EXPECT_GE(r.gpu_busy_percent, 0);
  EXPECT_LE(r.gpu_busy_percent, 100 + kEps);
  for (const ReportOp& op : r.ops) {
    EXPECT_GE(op.percent, 0) << op.name;
    EXPECT_LE(op.percent, 100 + kEps) << op.name;
    EXPECT_LE(op.cumulative_percent, 100 + 1e-3) << op.name;
    EXPECT_LE(op.self_ns, op.total_ns) << op.name;
    // A kernel has no children on its stream: its self time is its duration.
    if (IsDeviceOpKind(op.kind)) {
      EXPECT_EQ(op.self_ns, op.total_ns) << op.name;
    }
    // Step markers are not ops.
    EXPECT_FALSE(op.name.starts_with("ProfilerStep#")) << op.name;
  }
  // Memory.
  for (const ReportMemory& m : r.memory) {
    SCOPED_TRACE(m.name);
    int64_t live = 0;
    for (const ReportMemoryOp& op : m.top_at_peak) live += op.bytes;
    if (!m.attributed) {
      EXPECT_TRUE(m.top_at_peak.empty()) << "live bytes attributed without addresses";
      EXPECT_EQ(m.never_freed, 0u);
      EXPECT_EQ(m.unmatched_frees, 0u);
    } else {
      EXPECT_LE(m.never_freed, m.allocations);
      EXPECT_LE(m.unmatched_frees, m.frees);
      // Matched pairs counted from both sides.
      EXPECT_EQ(m.allocations - m.never_freed, m.frees - m.unmatched_frees);
      // Live at the peak: allocations made in the capture and still open,
      // plus those from before it freed later. Never more than that.
      int64_t before = 0;
      for (const ReportAllocation& al : r.allocations) {
        if (&r.memory[al.pool] == &m && al.alloc_ns == kAllocBeforeCapture) before += al.bytes;
      }
      EXPECT_LE(live, m.allocated_bytes + before);
      // An absolute level is everything held, so what is live within it cannot exceed it.
      if (!m.relative) {
        EXPECT_LE(live, m.peak_allocated_bytes);
      }
    }
  }
  // A cut file: whole-step figures use the steps before the cut only.
  EXPECT_LE(a.complete_steps, a.steps.steps.size());
  if (!trace.diagnostics().has_data_loss()) {
    EXPECT_EQ(a.complete_steps, a.steps.steps.size());
  }
  for (const OutlierStep& o : a.outliers.steps) EXPECT_LT(o.step, std::max<size_t>(a.complete_steps, 1));
  if (a.complete_steps < a.steps.steps.size()) {
    EXPECT_FALSE(a.notes.empty());
  }
  // No figure uses time after the cut: step time, busy and the breakdown sum
  // the steps that end before it (the cut recomputed here from the slices:
  // the earlier of the last host event's and the last device event's end).
  ASSERT_EQ(a.step_stats.count, a.complete_steps);
  DurNs windows = 0, durations = 0;
  for (size_t k = 0; k < a.complete_steps; ++k) {
    windows += a.steps.steps[k].window_dur_ns;
    durations += a.steps.steps[k].dur_ns;
  }
  EXPECT_EQ(a.step_stats.window_total_ns, windows);
  EXPECT_EQ(a.step_stats.total_ns, durations);
  if (trace.diagnostics().has_data_loss() && a.complete_steps > 0) {
    TimeNs host_end = std::numeric_limits<TimeNs>::min(), device_end = host_end;
    const SliceTable& s = trace.slices();
    for (size_t i = 0; i < s.size(); ++i) {
      const TimeNs end = s.start_ns()[i] + s.dur_ns()[i];
      if (s.gpu_kind()[i] != GpuKind::kNone) device_end = std::max(device_end, end);
      if (trace.tracks().kind(s.track()[i]) == TrackKind::kHostThread) host_end = std::max(host_end, end);
    }
    const TimeNs cut = device_end == std::numeric_limits<TimeNs>::min() ? host_end : std::min(host_end, device_end);
    EXPECT_LE(a.steps.steps[a.complete_steps - 1].end_ns(), cut);
  }
  if (r.primary_device_index >= 0) {
    CategoryNs summed{};
    for (size_t k = 0; k < a.complete_steps && k < r.steps.size(); ++k) {
      for (size_t c = 0; c < summed.size(); ++c) summed[c] += r.steps[k].breakdown[c];
    }
    EXPECT_EQ(r.breakdown_total, summed);
    EXPECT_DOUBLE_EQ(r.gpu_busy_percent, GpuBusyPercent(summed));
  }
}

// The first `bytes` of a shared trace ("" when it cannot be read).
std::string InvariantsCutPrefix(const std::string& relative, size_t bytes) {
  std::string text(bytes, '\0');
  FILE* f = std::fopen(::stepline::testing::SharedTracePath(relative).c_str(), "rb");
  if (f == nullptr) return {};
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  return text;
}

TEST(AnalysisInvariantsTest, EveryDemoScenario) {
  for (const demo::DemoScenarioInfo& info : demo::DemoScenarios()) {
    for (const demo::DemoStyle style : {demo::DemoStyle::kTensorFlow, demo::DemoStyle::kPyTorch}) {
      demo::DemoOptions options;
      options.scenario = std::string(info.name);
      options.style = style;
      options.steps = 6;
      options.compute_truth = false;
      auto trace = demo::GenerateDemoTrace(options);
      ASSERT_TRUE(trace.ok()) << info.name;
      CheckInvariants(trace.value(), std::string(info.name) + " " + std::string(demo::DemoStyleName(style)));
    }
  }
}

TEST(AnalysisInvariantsTest, EverySharedTrace) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(::stepline::testing::SharedTracesDir())) {
    if (e.is_regular_file() && e.path().extension() != ".tsv") paths.push_back(e.path().string());
  }
  std::sort(paths.begin(), paths.end());
  size_t checked = 0;
  for (const std::string& path : paths) {
    auto loaded = loaders::LoadFile(path);
    if (!loaded.ok()) {
      std::printf("[ skipped  ] %s: %s\n", path.c_str(), loaded.error().ToString().c_str());
      continue;
    }
    CheckInvariants(loaded.value(), path);
    ++checked;
  }
  EXPECT_GT(checked, 30u);
}

// A cut copy of the 2021 ResNet Kineto trace holds host ops and no kernels:
// whole-step figures keep to the steps before the cut.
TEST(AnalysisInvariantsTest, CutKinetoTrace) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const std::string full = ::stepline::testing::SharedTracePath(
      "kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz");
  std::string bytes(300'000, '\0');
  FILE* f = std::fopen(full.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fread(bytes.data(), 1, bytes.size(), f), bytes.size());
  std::fclose(f);
  auto cut = loaders::LoadBytes(bytes, "resnet50_cut.json.gz");
  ASSERT_TRUE(cut.ok()) << cut.error().ToString();
  ASSERT_TRUE(cut.value().diagnostics().has_data_loss());
  CheckInvariants(cut.value(), "cut resnet50");
}

// Cut copies of a few more traces, at several points.
TEST(AnalysisInvariantsTest, CutCopiesOfSharedTraces) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  size_t cut_files = 0;
  for (const char* relative : {"kineto/resnet50_num_workers_0__worker0.2021-02.pt.trace.json.gz",
                               "tracelens/mi300_resnet_act_checkpoint.json.gz",
                               "hta/trace_filter_sampled_rank-0.json.gz"}) {
    for (size_t bytes : {60'000, 400'000, 800'000}) {
      const std::string prefix = InvariantsCutPrefix(relative, bytes);
      ASSERT_FALSE(prefix.empty()) << relative;
      auto cut = loaders::LoadBytes(prefix, std::filesystem::path(relative).filename().string());
      if (!cut.ok()) continue;  // cut before the first event: nothing to check
      cut_files += cut.value().diagnostics().has_data_loss() ? 1 : 0;
      CheckInvariants(cut.value(), std::string(relative) + " cut at " + std::to_string(bytes));
    }
  }
  EXPECT_GT(cut_files, 0u);
}

}  // namespace
}  // namespace stepline::analysis
