// XLA devices: TPU planes and XLA-only GPU planes are
// analysed like GPUs. A TPU fixture built with the XSpace writer (device kind,
// busy = a brute-force union, steps from the top module, HLO names parsed),
// then the shared traces: the TPU inference capture against the facts of
// tests/data/xspace_xla_facts.py (a second decoder over the raw bytes:
// tests/data/xspace_xla_facts.txt), and the ROCm JAX captures (modules table,
// blame the evidence supports).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "loaders/load.h"
#include "loaders/xspace/xspace_loader.h"
#include "model/analysis/report.h"
#include "model/xla_op.h"
#include "tests/loaders/xspace_test_builder.h"
#include "tests/support/test_traces.h"

namespace stepline::testing {
namespace {

using analysis::DeviceKind;
using analysis::StepSource;

Trace LoadXla(const xs::XSpace& space) {
  auto result = loaders::LoadXSpaceBytes(Serialize(space), "tpu.xplane.pb", {});
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().ToString());
  return std::move(result).value();
}

Trace LoadSharedXla(const std::string& relative) {
  auto result = loaders::LoadFile(SharedTracePath(relative));
  EXPECT_TRUE(result.ok()) << relative << ": " << (result.ok() ? "" : result.error().ToString());
  return std::move(result).value();
}

struct Op {
  const char* text;      // the event name: HLO text or an instruction name
  const char* category;  // hlo_category stat; "" none
  int64_t start_ns, dur_ns;
};

// One TPU core: jit_train_step runs three times (the top module), jit_init
// once (longer than one train step, but it does not repeat), and its ops
// overlap and nest the way async XLA ops do.
struct TpuFixture {
  xs::XSpace space;
  PlaneBuilder tpu{&space, 7, "/device:TPU:0"};
  xs::XLine* modules = tpu.Line(1, "XLA Modules", 1'000'000);
  xs::XLine* ops = tpu.Line(2, "XLA Ops", 1'000'000);
  int64_t category = tpu.StatMd("hlo_category");

  void Module(const std::string& name, int64_t start_ns, int64_t dur_ns) {
    PlaneBuilder::Event(modules, tpu.EventMd(name), start_ns * 1000, dur_ns * 1000);
  }
  void AddOp(const Op& op) {
    auto* e = PlaneBuilder::Event(ops, tpu.EventMd(op.text), op.start_ns * 1000, op.dur_ns * 1000);
    if (op.category[0] != '\0') PlaneBuilder::Stat(e->mutable_stats(), category)->set_str_value(op.category);
  }
};

const Op kOps[] = {
    {"%fusion.12 = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %p0), kind=kLoop", "", 0, 300},
    {"%fusion.12 = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %p0), kind=kLoop", "", 1000, 250},
    {"%fusion.12 = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %p0), kind=kLoop", "", 2000, 280},
    {"fusion.3", "loop fusion", 200, 400},        // overlaps fusion.12
    {"all-reduce.1", "all-reduce", 1300, 500},    // collective
    {"convolution.7", "convolution", 1350, 100},  // nested in the all-reduce's time
    {"copy.2", "", 2500, 100},                    // touches nothing
    {"outfeed.1", "outfeed", 2700, 50},           // device-to-host transfer
    {"fusion.1", "", 5000, 4000},                 // inside jit_init
};

TEST(XSpaceXla, TpuPlaneIsAnalysedLikeAGpu) {
  TpuFixture f;
  f.Module("jit_train_step(42)", 0, 900);
  f.Module("jit_train_step(42)", 1000, 900);
  f.Module("jit_train_step(42)", 2000, 900);
  f.Module("jit_init(7)", 5000, 4000);
  for (const Op& op : kOps) f.AddOp(op);
  const Trace t = LoadXla(f.space);
  const analysis::Report r = analysis::ComputeReport(t);

  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].kind, DeviceKind::kTpu);
  EXPECT_EQ(r.devices[0].name, "TPU 0");
  // Busy: the union of the kernel-like ops (the outfeed is a copy), brute force per ns.
  std::set<int64_t> covered;
  for (const Op& op : kOps) {
    if (std::string_view(op.category) == "outfeed") continue;
    for (int64_t ns = op.start_ns; ns < op.start_ns + op.dur_ns; ++ns) covered.insert(ns);
  }
  EXPECT_EQ(r.devices[0].busy_ns, static_cast<DurNs>(covered.size()));
  EXPECT_EQ(r.devices[0].idle_ns, (9000 - 0) - static_cast<DurNs>(covered.size()));

  // Steps: jit_train_step's executions (jit_init is longer but runs once).
  EXPECT_EQ(r.step_source, StepSource::kXlaModule);
  EXPECT_EQ(analysis::StepSourceName(r.step_source), "xla_module");
  ASSERT_EQ(r.steps.size(), 3u);
  EXPECT_EQ(r.steps[0].name, "jit_train_step 0");
  EXPECT_EQ(r.steps[2].start_ns, 1'000'000 + 2000);
  // A step runs to the next execution's start (the 100 ns the device waits
  // between executions are the step's idle); the last one lasts its execution.
  EXPECT_EQ(r.steps[0].dur_ns, 1000);
  EXPECT_EQ(r.steps[1].dur_ns, 1000);
  EXPECT_EQ(r.steps[2].dur_ns, 900);
  // Idle inside the steps, brute force: every ns of [0, 2900) that no op
  // (the outfeed copy included) covers; 200 ns of it lie between executions.
  std::set<int64_t> any_op;
  for (const Op& op : kOps) {
    for (int64_t ns = op.start_ns; ns < op.start_ns + op.dur_ns; ++ns) any_op.insert(ns);
  }
  DurNs uncovered = 0;
  for (int64_t ns = 0; ns < 2900; ++ns) uncovered += any_op.count(ns) == 0 ? 1 : 0;
  DurNs idle_in_steps = 0;
  for (int c = 0; c < analysis::kTimeCategoryCount; ++c) {
    if (analysis::IsIdle(analysis::TimeCategory(c))) idle_in_steps += r.breakdown_total[size_t(c)];
  }
  EXPECT_EQ(idle_in_steps, uncovered);
  // The all-reduce's time without compute under it is collective, the outfeed d2h.
  EXPECT_EQ(r.breakdown_total[size_t(analysis::TimeCategory::kCollective)], 500 - 100);
  EXPECT_EQ(r.breakdown_total[size_t(analysis::TimeCategory::kMemcpyD2H)], 50);

  // XLA ops by instruction name, with category and module.
  auto op_named = [&](std::string_view name) -> const analysis::XlaOpStat* {
    for (const auto& o : r.xla.ops)
      if (o.name == name) return &o;
    return nullptr;
  };
  const analysis::XlaOpStat* fusion = op_named("fusion.12");
  ASSERT_NE(fusion, nullptr);
  EXPECT_EQ(fusion->group, "fusion");
  EXPECT_EQ(fusion->category, "fusion");  // no hlo_category: the HLO text's opcode
  EXPECT_EQ(fusion->module, "jit_train_step(42)");
  EXPECT_EQ(fusion->count, 3u);
  EXPECT_EQ(fusion->total_ns, 300 + 250 + 280);
  ASSERT_NE(op_named("all-reduce.1"), nullptr);
  EXPECT_EQ(op_named("all-reduce.1")->category, "all-reduce");
  EXPECT_EQ(op_named("all-reduce.1")->kind, GpuKind::kCollective);
  EXPECT_EQ(op_named("fusion.1")->module, "jit_init(7)");
  ASSERT_EQ(r.xla.modules.size(), 2u);
  EXPECT_EQ(r.xla.modules[0].name, "jit_init(7)");  // by total time
  EXPECT_EQ(r.xla.modules[1].name, "jit_train_step(42)");
  EXPECT_EQ(r.xla.modules[1].executions, 3u);
  EXPECT_EQ(r.xla.modules[1].total_ns, 2700);
  EXPECT_EQ(r.xla.modules[1].mean_ns, 900);
  // Advice for a TPU names the TPU, never CUDA.
  for (const std::string& s : r.recommendations) {
    EXPECT_EQ(s.find("CUDA"), std::string::npos) << s;
    EXPECT_EQ(s.find("GPU"), std::string::npos) << s;
  }
}

TEST(XSpaceXla, GpuPlaneWithOnlyXlaLinesUsesItsXlaOps) {
  xs::XSpace space;
  PlaneBuilder gpu(&space, 1, "/device:GPU:0");
  xs::XLine* ops = gpu.Line(2, "XLA Ops", 0);
  PlaneBuilder::Event(ops, gpu.EventMd("fusion.1"), 0, 1'000'000);
  PlaneBuilder::Event(ops, gpu.EventMd("all-gather.2"), 2'000'000, 1'000'000);
  const Trace t = LoadXla(space);
  const analysis::Report r = analysis::ComputeReport(t);
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].kind, DeviceKind::kGpu);
  EXPECT_EQ(r.devices[0].busy_ns, 2000);
  EXPECT_EQ(t.slices().gpu_kind()[1], GpuKind::kCollective);
}

TEST(XSpaceXla, GpuPlaneWithStreamsKeepsItsKernelsAsTheActivity) {
  xs::XSpace space;
  PlaneBuilder gpu(&space, 1, "/device:GPU:0");
  PlaneBuilder::Event(gpu.Line(14, "Stream #14(Compute)", 0), gpu.EventMd("gemm_kernel"), 0, 1'000'000);
  PlaneBuilder::Event(gpu.Line(2, "XLA Ops", 0), gpu.EventMd("fusion.1"), 0, 5'000'000);
  const Trace t = LoadXla(space);
  const analysis::Report r = analysis::ComputeReport(t);
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].busy_ns, 1000);  // the XLA Ops row duplicates kernels: not counted
}

TEST(XlaOpNames, HloTextAndGroups) {
  EXPECT_EQ(HloInstructionName("%fusion.12 = f32[8]{0} fusion(f32[8]{0} %p), kind=kLoop"), "fusion.12");
  EXPECT_EQ(HloInstructionName("fusion.12"), "fusion.12");
  EXPECT_EQ(HloInstructionName("  %copy-start.3 = (f32[2], u32[]) copy-start(%x)"), "copy-start.3");
  EXPECT_EQ(HloOpGroup("fusion.12"), "fusion");
  EXPECT_EQ(HloOpGroup("all-reduce.1.2"), "all-reduce");
  EXPECT_EQ(HloOpGroup("copy-done"), "copy-done");
  EXPECT_EQ(HloOpGroup(".5"), ".5");
  EXPECT_EQ(HloOpcode("%fusion.12 = f32[8]{0} fusion(f32[8]{0} %p)"), "fusion");
  EXPECT_EQ(HloOpcode("fusion.12"), "");
  EXPECT_EQ(ClassifyXlaOp("all-reduce-start.1", ""), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("fusion.3", "all-gather"), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("send.4", ""), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("sendfoo_fusion", ""), GpuKind::kKernel);
  EXPECT_EQ(ClassifyXlaOp("infeed.1", ""), GpuKind::kMemcpyH2D);
  EXPECT_EQ(ClassifyXlaOp("x.1", "outfeed"), GpuKind::kMemcpyD2H);
  EXPECT_EQ(ClassifyXlaOp("%cp.2 = f32[4] collective-permute(%a)", ""), GpuKind::kCollective);
  EXPECT_EQ(ClassifyXlaOp("convolution.7", "convolution"), GpuKind::kKernel);
}

// tests/data/xspace_xla_facts.txt: per TPU core the union of its XLA Ops
// except copy-start / copy-done (waits for async copies, not compute).
TEST(XSpaceXla, RealTpuInferenceTrace) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadSharedXla("xprof/tpu_inference_2.xplane.pb");
  const analysis::Report r = analysis::ComputeReport(t);
  struct Core {
    DurNs busy_ns, span_ns;
  };
  const Core kCores[] = {
      {2736558842, 92322235379}, {2740087641, 90273900145}, {2650663426, 90239777869}, {2737467790, 90269760944}};
  ASSERT_EQ(r.devices.size(), 4u);
  for (size_t d = 0; d < 4; ++d) {
    const analysis::DeviceReport& dev = r.devices[d];
    EXPECT_EQ(dev.kind, DeviceKind::kTpu);
    EXPECT_EQ(dev.name, "TPU " + std::to_string(d));
    EXPECT_EQ(dev.busy_ns, kCores[d].busy_ns) << dev.name;
    EXPECT_EQ(dev.active_span.duration_ns(), kCores[d].span_ns) << dev.name;
    const double busy_pct = 100.0 * static_cast<double>(dev.busy_ns) / static_cast<double>(kCores[d].span_ns);
    EXPECT_GT(busy_pct, 2.9);
    EXPECT_LT(busy_pct, 3.1);
  }
  EXPECT_EQ(r.step_source, StepSource::kXlaModule);
  EXPECT_EQ(r.steps.size(), 100u);  // jit_f runs 100 times on every core
  EXPECT_EQ(r.steps[0].name, "jit_f 0");
  ASSERT_FALSE(r.xla.modules.empty());
  EXPECT_EQ(r.xla.modules[0].name, "jit_f(12190760917235803885)");
  EXPECT_EQ(r.xla.modules[0].executions, 400u);  // 100 on each of 4 cores
  ASSERT_FALSE(r.recommendations.empty());
  EXPECT_NE(r.recommendations[0].find("TPU"), std::string::npos) << r.recommendations[0];
}

// The ROCm JAX captures: kernels stay the device activity (their counts are
// asserted by xspace_real_traces_test.cpp), and the modules come from the
// kernels' hlo_module args (no XLA Modules rows).
TEST(XSpaceXla, JaxGpuTracesHaveAModulesTable) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const struct {
    const char* file;
    const char* top_module;
    uint64_t ops;
  } kCases[] = {{"tracelens/jax08_conv_mi300.xplane.pb", "jit_forward_3d_conv", 198},
                {"tracelens/jax08_gemm_mi300.xplane.pb", "jit_dot", 18}};
  for (const auto& c : kCases) {
    const Trace t = LoadSharedXla(c.file);
    const analysis::Report r = analysis::ComputeReport(t);
    ASSERT_FALSE(r.xla.modules.empty()) << c.file;
    EXPECT_EQ(r.xla.modules[0].name, c.top_module);
    EXPECT_EQ(r.xla.modules[0].executions, 0u);  // unknown without XLA Modules rows
    EXPECT_EQ(r.xla.modules[0].ops, c.ops);
    for (const auto& d : r.devices) EXPECT_EQ(d.kind, DeviceKind::kGpu);
    // ROCm: HIP advice, never CUDA graphs.
    for (const std::string& s : r.recommendations) EXPECT_EQ(s.find("CUDA"), std::string::npos) << s;
  }
}

// The 45.3 ms gap on GPU 5 of jax08_conv was blamed on the
// 0.44 ms hipModuleLaunchKernel that ended it ("97% kernel-launch-bound").
// The launching thread idles for the rest of the window, so the launch
// explains none of it; no gap of the trace is launch-bound for long.
TEST(XSpaceXla, Jax08BlameIsWhatTheEvidenceSupports) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadSharedXla("tracelens/jax08_conv_mi300.xplane.pb");
  const analysis::TraceAnalysis a = analysis::ComputeAnalysis(t);
  const analysis::Report r = analysis::ResolveReport(t, a);
  const analysis::ReportGap* longest = nullptr;
  for (const analysis::ReportGap& g : r.gaps) {
    if (r.DeviceName(g) == "GPU 5" && (longest == nullptr || g.dur_ns > longest->dur_ns)) longest = &g;
    if (g.cause != analysis::IdleCause::kLaunch) continue;
    // A launch-caused gap: its launch calls cover more of it than the thread idles.
    DurNs launch_ns = 0;
    for (const analysis::ReportEvent& e : r.CauseEvents(g)) launch_ns += e.overlap_ns;
    EXPECT_GE(2 * launch_ns, g.dur_ns) << "gap at " << g.start_ns;
  }
  ASSERT_NE(longest, nullptr);
  EXPECT_NEAR(static_cast<double>(longest->dur_ns), 45.3e6, 0.1e6);
  EXPECT_NE(longest->cause, analysis::IdleCause::kLaunch);
  for (const analysis::ReportEvent& e : r.CauseEvents(*longest)) {
    EXPECT_EQ(e.name.find("LaunchKernel"), std::string_view::npos);
  }
  for (const std::string& s : r.recommendations) {
    EXPECT_EQ(s.find("kernel-launch-bound"), std::string::npos) << s;
  }
  // Every percentage in a recommendation is the share its gaps sum to.
  const analysis::DeviceAnalysis& primary = *a.primary();
  const double step_ns = static_cast<double>(a.step_stats.total_ns);
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) {
    const double pct = 100.0 * static_cast<double>(primary.step_idle_by_cause[c]) / step_ns;
    if (pct < 5.0) continue;
    char want[16];
    std::snprintf(want, sizeof want, "%.0f%%", pct);
    bool found = false;
    for (const std::string& s : r.recommendations) found = found || s.find(want) != std::string::npos;
    EXPECT_TRUE(found) << analysis::IdleCauseName(static_cast<analysis::IdleCause>(c)) << " " << want;
  }
  // And the per-cause step idle is exactly what the gaps overlapping the steps sum to.
  DurNs by_gaps = 0, by_breakdown = 0;
  const auto [begin, end] = a.DeviceGaps(static_cast<uint32_t>(a.primary_device));
  for (uint32_t i = begin; i < end; ++i) {
    for (const auto& st : a.steps.steps)
      by_gaps += TimeRange{a.gaps[i].start_ns, a.gaps[i].end_ns}.OverlapNs({st.start_ns, st.end_ns()});
  }
  for (int c = 0; c < analysis::kIdleCauseCount; ++c) by_breakdown += primary.step_idle_by_cause[c];
  EXPECT_LE(by_gaps, by_breakdown);  // edge idle (before the first kernel) is in steps but not a gap
}

// Vendor-correct advice on a real ROCm PyTorch capture: launch-bound, and
// the fix named is a HIP graph, not a CUDA one.
TEST(XSpaceXla, RocmTraceGetsHipAdvice) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadSharedXla("hta/amd_trace_mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  const analysis::Report r = analysis::ComputeReport(t);
  ASSERT_FALSE(r.recommendations.empty());
  EXPECT_NE(r.recommendations[0].find("kernel-launch-bound"), std::string::npos) << r.recommendations[0];
  EXPECT_NE(r.recommendations[0].find("hipGraphLaunch"), std::string::npos) << r.recommendations[0];
  for (const std::string& s : r.recommendations) EXPECT_EQ(s.find("CUDA"), std::string::npos) << s;
}

// Other accelerators: the MTIA device of the HTA capture is
// analysed with its kind; its advice speaks of "the device".
TEST(XSpaceXla, MtiaDeviceIsAnalysedWithItsKind) {
  STEPLINE_REQUIRE_SHARED_TRACES();
  const Trace t = LoadSharedXla("hta/mtia_inference_trace_mtia_inference_rank_0.json.gz");
  const analysis::Report r = analysis::ComputeReport(t);
  ASSERT_EQ(r.devices.size(), 1u);
  EXPECT_EQ(r.devices[0].kind, DeviceKind::kOther);
  EXPECT_EQ(r.devices[0].name, "MTIA 17");
  EXPECT_EQ(r.devices[0].kernel_ns, 414085123);  // count_facts.py: 97 kernels
  EXPECT_FALSE(r.steps.empty());
  for (const std::string& s : r.recommendations) EXPECT_EQ(s.find("GPU"), std::string::npos) << s;
}

}  // namespace
}  // namespace stepline::testing
